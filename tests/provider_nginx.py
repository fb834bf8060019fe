#!/usr/bin/env python3
"""nginx serving TLS through the bigmont provider: Debian's nginx (installed
by scripts/setup) is started on 127.0.0.1 with OPENSSL_CONF, in the master's
environment only, naming a bigmont.cnf that loads the built bigmont.so (as
the installed bigmont.cnf does: no OPENSSL_MODULES), and a fresh RSA-2048
certificate made by the openssl command with the default provider.  curl
then fetches a small static page over

  - TLS 1.2 with ECDHE-RSA: the server signs its ServerKeyExchange;
  - TLS 1.2 with RSA key exchange (AES128-GCM-SHA256): the server decrypts
    the premaster secret;
  - TLS 1.3: the server signs its CertificateVerify (RSA-PSS),

each FETCHES times, and once more over TLS 1.3 after a reload (SIGHUP:
a new worker forked from the master), with session resumption off in
nginx, so that every fetch is a full handshake with one private-key
operation.  Each fetch must
return the page with the expected protocol, and after a graceful stop
(SIGQUIT) the provider's report (BIGMONT_PROVIDER_REPORT, which each of
nginx's processes appends to when it exits) must count at least one
bigmont private-key operation per handshake.  nginx's error log must have
no [emerg], [alert] or [crit] line.

Run as root, nginx's worker runs as nobody; as another user, as that user.
Only 127.0.0.1 is used; every process has a timeout and nginx is killed if
it does not stop.  Exits 77 (skipped) when nginx or curl is not installed.

usage: provider_nginx.py --modules DIR --config CNF [--openssl OPENSSL]
                         [--nginx NGINX] [--curl CURL]
"""

import argparse
import grp
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SKIP = 77
TIMEOUT = 60          # any one command
START_TIMEOUT = 30    # nginx listening
STOP_TIMEOUT = 30     # nginx gone after SIGQUIT (then SIGKILL)
FETCHES = 3           # per case
PAGE = "bigmont nginx test page\n"

CASES = [
    # name, curl options, expected protocol in curl's "SSL connection using" line
    ("TLS 1.2, ECDHE-RSA", ["--tlsv1.2", "--tls-max", "1.2", "--ciphers", "ECDHE-RSA-AES128-GCM-SHA256"],
     r"TLSv1\.2 / ECDHE-RSA-AES128-GCM-SHA256"),
    ("TLS 1.2, RSA key exchange", ["--tlsv1.2", "--tls-max", "1.2", "--ciphers", "AES128-GCM-SHA256"],
     r"TLSv1\.2 / AES128-GCM-SHA256"),
    ("TLS 1.3", ["--tlsv1.3"], r"TLSv1\.3 / TLS_"),
]


def find(name, given):
    if given:
        return given if os.access(given, os.X_OK) else None
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin:/sbin"
    return shutil.which(name, path=path)


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def temp_path_directives(nginx, tmp):
    """The *_temp_path directives of the modules this nginx has, into TMP,
    so that nginx run by another user than root does not need
    /var/lib/nginx."""
    out = subprocess.run([nginx, "-V"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True, timeout=TIMEOUT).stdout
    lines = ["client_body_temp_path %s;" % os.path.join(tmp, "client_body")]
    for module in ("proxy", "fastcgi", "uwsgi", "scgi"):
        if "--without-http_%s_module" % module not in out:
            lines.append("%s_temp_path %s;" % (module, os.path.join(tmp, module)))
    return "\n    ".join(lines)


def write_config(args, nginx, tmp, port):
    user = ""
    if os.geteuid() == 0:
        # The worker drops to nobody; what it opens (the page, the
        # report when it exits) is made readable and writable for it.
        pw = pwd.getpwnam("nobody")
        user = "user nobody %s;" % grp.getgrgid(pw.pw_gid).gr_name
    conf = os.path.join(tmp, "nginx.conf")
    with open(conf, "w") as f:
        f.write("""\
# written by tests/provider_nginx.py
{user}
worker_processes 1;
daemon off;
master_process on;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log notice;
events {{ worker_connections 64; }}
http {{
    access_log {tmp}/access.log;
    {temp_paths}
    server {{
        listen 127.0.0.1:{port} ssl;
        server_name localhost;
        ssl_certificate {tmp}/server.crt;
        ssl_certificate_key {tmp}/server.key;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache off;
        ssl_session_tickets off;
        root {tmp}/html;
        location / {{ }}
    }}
}}
""".format(user=user, tmp=tmp, port=port, temp_paths=temp_path_directives(nginx, tmp)))
    return conf


def write_provider_config(args, tmp):
    """args.config with the module named by its path in the build tree, as
    the installed bigmont.cnf names the installed one."""
    with open(args.config) as f:
        cnf = f.read()
    module = os.path.join(os.path.abspath(args.modules), "bigmont.so")
    if "# module = <installed path>" not in cnf:
        raise RuntimeError("%s has no '# module = <installed path>' line" % args.config)
    cnf = cnf.replace("# module = <installed path>", "module = " + module)
    path = os.path.join(tmp, "bigmont.cnf")
    with open(path, "w") as f:
        f.write(cnf)
    os.chmod(path, 0o644)
    return path


def make_files(args, tmp, env):
    os.chmod(tmp, 0o755)
    key = os.path.join(tmp, "server.key")
    cert = os.path.join(tmp, "server.crt")
    for cmd in ([args.openssl, "genpkey", "-algorithm", "RSA", "-pkeyopt",
                 "rsa_keygen_bits:2048", "-out", key],
                [args.openssl, "req", "-x509", "-new", "-key", key, "-subj", "/CN=localhost",
                 "-days", "2", "-out", cert]):
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=TIMEOUT)
    html = os.path.join(tmp, "html")
    os.mkdir(html)
    os.chmod(html, 0o755)
    with open(os.path.join(html, "index.html"), "w") as f:
        f.write(PAGE)
    os.chmod(os.path.join(html, "index.html"), 0o644)
    report = os.path.join(tmp, "report")
    open(report, "w").close()
    os.chmod(report, 0o666)
    return cert, report


def start_nginx(nginx, conf, tmp, env, port):
    """Start nginx in the foreground; the Popen once it listens, else None
    (with its error log) if it exited."""
    log = open(os.path.join(tmp, "nginx.out"), "w")
    proc = subprocess.Popen([nginx, "-p", tmp + "/", "-e", os.path.join(tmp, "error.log"),
                             "-c", conf], env=env, stdin=subprocess.DEVNULL, stdout=log,
                            stderr=subprocess.STDOUT)
    log.close()
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return None
        if listening(port):
            return proc
        time.sleep(0.1)
    stop_nginx(proc)
    raise RuntimeError("nginx did not listen on 127.0.0.1:%d in %d s" % (port, START_TIMEOUT))


def children(pid):
    """The pids whose parent is PID (nginx's worker, for its master)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    stat = f.read()
            except OSError:
                continue
            # pid (comm) state ppid ...: comm may hold spaces and parentheses
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                pids.append(int(entry))
    return pids


def stop_nginx(proc):
    """Graceful stop (SIGQUIT: the worker finishes and exits, running
    libcrypto's exit handlers); on timeout SIGKILL to the master and its
    children.  True if it stopped gracefully."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGQUIT)
        try:
            proc.wait(timeout=STOP_TIMEOUT)
            return True
        except subprocess.TimeoutExpired:
            pass
        for pid in children(proc.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        proc.kill()
    proc.wait()
    return False


def fetch(args, port, opts, cert, env):
    """One fetch; (exit status, body, curl's -v output)."""
    r = subprocess.run([args.curl, "-sS", "-v", "--max-time", "30", "--cacert", cert,
                        "--resolve", "localhost:%d:127.0.0.1" % port,
                        "https://localhost:%d/index.html" % port] + opts,
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=TIMEOUT)
    return r.returncode, r.stdout, r.stderr


def count_lines(path, text):
    with open(path) as f:
        return sum(text in line for line in f)


def report_ops(report):
    lines = []
    with open(report) as f:
        for line in f:
            k, _, v = line.strip().partition("=")
            if k == "bigmont-private-ops":
                lines.append(int(v))
    return lines


def run(args, tmp, env):
    nginx = args.nginx
    cert, report = make_files(args, tmp, env)
    cnf = write_provider_config(args, tmp)
    # Only the master gets the variables; its worker inherits the loaded
    # provider (nginx clears the environment of its workers).
    nenv = dict(env, OPENSSL_CONF=cnf, BIGMONT_PROVIDER_REPORT=report)
    proc = None
    for _ in range(3):  # another program may take the free port first
        port = free_port()
        conf = write_config(args, nginx, tmp, port)
        proc = start_nginx(nginx, conf, tmp, nenv, port)
        if proc is not None:
            break
        with open(os.path.join(tmp, "error.log")) as f:
            log = f.read()
        if "Address already in use" not in log:
            with open(os.path.join(tmp, "nginx.out")) as f:
                log += f.read()
            print("provider_nginx: FAILED: nginx did not start:\n" + log)
            return 1
    if proc is None:
        print("provider_nginx: FAILED: no free port on 127.0.0.1 in 3 tries")
        return 1
    failed = 0
    handshakes = 0
    try:
        for name, opts, protocol in CASES:
            for i in range(FETCHES):
                rc, body, verbose = fetch(args, port, opts, cert, env)
                handshakes += rc == 0
                m = re.search(r"SSL connection using (.*)", verbose)
                if rc != 0 or body != PAGE or not m or not re.match(protocol, m.group(1)):
                    failed += 1
                    print("provider_nginx: FAILED: %s, fetch %d: curl exit %d, body %r, %s\n"
                          "--- curl -v:\n%s" % (name, i + 1, rc, body[:200],
                                                m.group(0) if m else "no TLS connection",
                                                verbose))
                    break
            else:
                print("provider_nginx: %s: %d fetches, %s" % (name, FETCHES, m.group(1)))
        if not failed:
            # A reload (SIGHUP): the master reads nginx.conf again and forks
            # a new worker, which has the provider the master loaded.
            error_log = os.path.join(tmp, "error.log")
            started = count_lines(error_log, "start worker process")
            proc.send_signal(signal.SIGHUP)
            deadline = time.monotonic() + START_TIMEOUT
            while (count_lines(error_log, "start worker process") <= started
                   and time.monotonic() < deadline and proc.poll() is None):
                time.sleep(0.1)
            rc, body, verbose = fetch(args, port, ["--tlsv1.3"], cert, env)
            handshakes += rc == 0
            if rc != 0 or body != PAGE:
                failed += 1
                print("provider_nginx: FAILED: after a reload (SIGHUP): curl exit %d, body %r\n"
                      "--- curl -v:\n%s" % (rc, body[:200], verbose))
            else:
                print("provider_nginx: after a reload (SIGHUP): 1 fetch, TLS 1.3")
    finally:
        graceful = stop_nginx(proc)
    if not graceful:
        failed += 1
        print("provider_nginx: FAILED: nginx did not stop in %d s after SIGQUIT" % STOP_TIMEOUT)
    with open(os.path.join(tmp, "error.log")) as f:
        log = f.read()
    bad = [l for l in log.splitlines() if re.search(r"\[(emerg|alert|crit)\]", l)]
    if bad:
        failed += 1
        print("provider_nginx: FAILED: nginx's error log:\n" + "\n".join(bad))
    ops = report_ops(report)
    if sum(ops) < handshakes or handshakes == 0:
        failed += 1
        print("provider_nginx: FAILED: %d handshakes, bigmont private-key operations reported "
              "by nginx's processes: %s\n--- error log:\n%s" % (handshakes, ops or "none", log))
    else:
        print("provider_nginx: %d handshakes, bigmont private-key operations reported by "
              "nginx's processes as they exited: %s" % (
                  handshakes, " + ".join(str(n) for n in ops)))
    return 1 if failed else 0


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--modules", required=True, help="the directory holding bigmont.so")
    p.add_argument("--config", required=True, help="provider/bigmont.cnf")
    p.add_argument("--openssl", default="openssl")
    p.add_argument("--nginx", help="default: nginx on PATH or in /usr/sbin")
    p.add_argument("--curl", help="default: curl on PATH")
    args = p.parse_args(argv)
    args.nginx = find("nginx", args.nginx)
    args.curl = find("curl", args.curl)
    missing = [n for n, v in (("nginx", args.nginx), ("curl", args.curl)) if v is None]
    if missing:
        print("provider_nginx: skipped: %s not installed (scripts/setup installs them as root: "
              "apt-get install nginx curl)" % " and ".join(missing))
        return SKIP
    env = dict(os.environ)
    for var in ("OPENSSL_CONF", "OPENSSL_MODULES", "BIGMONT_PROVIDER_REPORT"):
        env.pop(var, None)
    with tempfile.TemporaryDirectory(prefix="bigmont-nginx-") as tmp:
        return run(args, tmp, env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
