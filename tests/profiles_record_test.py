#!/usr/bin/env python3
"""Tests of profiles/record's accounting of the NASM kernels (its "asm
leaves:" line) on canned input: tests/data/profiles/perf-script-ifma-intel.txt,
the `perf script` text of an RSA-2048 ifma profile whose hottest functions
are the 20-digit kernels in their intel tuning, and readelf-symbols.txt, an
excerpt of `readelf -sW` of a chunk64-asm bigmont; and of its folding of
the lane kernels' loop labels into their kernel (readelf-lanes.txt,
perf-script-lanes.txt).

usage: tests/profiles_record_test.py [BIGMONT asm|noasm]

With a bigmont binary, also checks its symbol table: in an assembly build
every kernel the .asm files declare by name is found (and the tuned
radix-2^52 ones, which they build with a macro) and no C function is; in a
C build none is found; and that a --variant the CPU or build cannot run is
refused before any profiler starts.  Without: the paths record and compare
print, and compare's error for a missing file.

And record's --batch: the command it profiles (`bigmont speed --batch`),
the file it names, BIGMONT_BATCH from --lanes, the options it refuses;
with a bigmont whose speed has no --batch, that record refuses it by name
and writes nothing.
"""
import argparse
import contextlib
import glob
import importlib.machinery
import importlib.util
import io
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data", "profiles")
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "profiles"))
import proflib  # noqa: E402

_loader = importlib.machinery.SourceFileLoader(
    "profiles_record", os.path.join(ROOT, "profiles", "record"))
_spec = importlib.util.spec_from_loader("profiles_record", _loader)
record = importlib.util.module_from_spec(_spec)
_loader.exec_module(record)

BIGMONT, BUILD = None, None


def own(cmd):
    """cmd, one of the build's programs, through BIGMONT_EMULATOR when it
    is set (a cross build under qemu-user), as profiles/record runs it."""
    return record.own_command(cmd)


def read(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


class AsmLeaves(unittest.TestCase):
    def setUp(self):
        self.excl, _, self.total, self.samples, _ = proflib.perf_counts(
            read("perf-script-ifma-intel.txt"))
        self.syms = proflib.nasm_kernel_symbols(read("readelf-symbols.txt"))

    def test_symbols_from_readelf(self):
        for k in ("big_r52_dual_sqr20_ifma_intel", "big_r52_dual_sqr20_ifma_amd",
                  "big_r52_dual_mul20_ifma_intel", "big_r52_dual_mul20_ifma_amd",
                  "big_r52_dual20_ifma_wipe", "big_mont_sqr_vec_adx",
                  "big_mont_sqr_vec_adx_16", "big_mont_mul_vec_adx_loop"):
            self.assertIn(k, self.syms)
        # C functions (sized), ifunc names, undefined imports, the C
        # runtime's and the linker's size-0 pieces are not kernels.
        for c in ("big_r52_dual_mul_ifma", "big_r52_dual_pow_ifma", "big_mont_sqr_vec_c",
                  "big_mont_reduce_ct", "big_r52_dual_sqr20_ifma_asm", "memset",
                  "frame_dummy", "_init", "r52_sqr_single_any.cold"):
            self.assertNotIn(c, self.syms)

    def test_tuned_kernels_count(self):
        # 13 samples: 7 in the intel squaring, 2 in its product, 1 in an
        # adx kernel; the C product, a C step and libc are not kernels.
        self.assertEqual(self.samples, 13)
        lines = record.asm_leaves(self.excl, self.total, "dwarf", None,
                                  lambda n: n in self.syms, "bigmont")
        self.assertEqual(len(lines), 1)
        self.assertTrue(lines[0].startswith("asm leaves:  76.9 % of samples are in NASM "
                                            "kernels"), lines[0])

    def test_only_the_profiled_executable(self):
        # The same name in another object is not one of our kernels.
        lines = record.asm_leaves(self.excl, self.total, "dwarf", None,
                                  lambda n: n in self.syms, "libc.so.6")
        self.assertEqual(lines, [])

    def test_fp_mode_reports_repairs(self):
        lines = record.asm_leaves(self.excl, self.total, "fp",
                                  {"repaired": 9, "left": 1},
                                  lambda n: n in self.syms, "bigmont")
        self.assertEqual(len(lines), 2)
        self.assertIn("76.9 %", lines[0])
        self.assertIn("in 9 samples; 1 samples were left", lines[1])

    def test_unreadable_binary_has_no_kernels(self):
        self.assertEqual(proflib.nasm_kernels(os.path.join(DATA, "no-such-binary")), set())


class KernelLabels(unittest.TestCase):
    """The lane kernels' loop labels count as their kernel: readelf-lanes.txt
    (labels of big_lanes_sqr37_avx2_asm and _sqr55_, a label in .rodata, one
    after a C function, a name that labels both kernels) and
    perf-script-lanes.txt (10 samples: 4 in ..@1560.group, 2 in .stream, 1
    at the kernel's entry, 1 in the C exponentiation, 1 in another object
    under a label's name, 1 under the ambiguous name)."""

    EXE = "bigmont-speed"
    KERNEL = "big_lanes_sqr37_avx2_asm"

    def setUp(self):
        text = read("readelf-lanes.txt")
        self.kernels = proflib.nasm_kernel_symbols(text)
        self.owners = proflib.nasm_label_owners(text, self.kernels)
        self.script = read("perf-script-lanes.txt")

    def test_labels_owned_by_their_kernel(self):
        self.assertEqual(self.owners["..@1560.group"], self.KERNEL)
        self.assertEqual(self.owners[self.KERNEL + ".stream"], self.KERNEL)
        self.assertEqual(self.owners[self.KERNEL + ".carry"], self.KERNEL)
        self.assertEqual(self.owners["..@2918.group"], "big_lanes_sqr55_avx2_asm")

    def test_what_is_not_a_kernel_part(self):
        for name in ("lanes_mask28", "after_c.label", "..@cfi_1_1", self.KERNEL,
                     "big_lanes_pow_avx2"):
            self.assertNotIn(name, self.owners)

    def test_folded_counts(self):
        fold = proflib.fold_labels(self.owners, self.EXE)
        excl, _, total, samples, broken = proflib.perf_counts(self.script, fold)
        self.assertEqual((samples, broken), (10, 0))
        w = total // samples
        self.assertEqual(excl[(self.KERNEL, self.EXE)], 7 * w)
        self.assertEqual(excl[("..@1560.group", "libother.so")], w)
        self.assertEqual(excl[("..@cfi_1_1", self.EXE)], w)
        self.assertNotIn(("..@1560.group", self.EXE), excl)
        lines = record.asm_leaves(excl, total, "dwarf", None, self.kernels.__contains__,
                                  self.EXE)
        self.assertTrue(lines[0].startswith("asm leaves:  70.0 % of samples"), lines[0])

    def test_parts(self):
        raw, _, total, _, _ = proflib.perf_counts(self.script)
        parts = record.kernel_parts(raw, self.owners, self.EXE, total)
        self.assertEqual(parts, [(self.KERNEL, "..@1560.group", 40.0),
                                 (self.KERNEL, self.KERNEL + ".stream", 20.0),
                                 (self.KERNEL, self.KERNEL, 10.0)])
        lines = record.format_parts(parts)
        self.assertTrue(lines[0].startswith("## NASM kernels by part"), lines[0])
        self.assertEqual(lines[2].split(), ["40.00", self.KERNEL, "..@1560.group"])
        self.assertEqual(record.format_parts([]), [])
        self.assertEqual(record.kernel_parts(raw, {}, self.EXE, total), [])


class PltStubs(unittest.TestCase):
    """A sample in a PLT stub is named after the entry's relocation, not
    perf's guess: in a bigmont-speed with ifunc slots perf showed the stub
    of big_mont_sqr_vec as munmap@plt (a cut of its objdump and nm)."""

    EXE = "bigmont-speed"
    OBJDUMP = """
Disassembly of section .plt:

0000000000006020 <getegid@plt-0x10>:
    6020:\tff 35 ca 9f 14 00    \tpush   0x149fca(%rip)

0000000000006030 <getegid@plt>:
    6030:\tff 25 ca 9f 14 00    \tjmp    *0x149fca(%rip)

0000000000006040 <*ABS*+0x4b810@plt>:
    6040:\tff 25 c2 9f 14 00    \tjmp    *0x149fc2(%rip)

0000000000006050 <*ABS*+0x4ffff@plt>:
    6050:\tff 25 ba 9f 14 00    \tjmp    *0x149fba(%rip)

0000000000006060 <memcpy@plt>:
    6060:\tff 25 b2 9f 14 00    \tjmp    *0x149fb2(%rip)
"""
    NM = ("000000000004bb50 i big_mont_mul_vec\n000000000004b810 i big_mont_sqr_vec\n"
          "000000000004b810 t resolve_big_mont_sqr_vec\n                 U memcpy@GLIBC_2.14\n")
    SCRIPT = (
        "bigmont-speed 1/1 250000 cpu-clock:\n"
        "\t    6046 munmap@plt (/b/bigmont-speed)\n"
        "\t   a3880 big_crt_exp_mod_primes (/b/bigmont-speed)\n"
        "\t   29d89 __libc_start_call_main (/usr/lib/libc.so.6)\n\n"
        "bigmont-speed 1/1 250000 cpu-clock:\n"
        "\t    6060 dlsym@plt (/b/bigmont-speed)\n"
        "\t   29d89 __libc_start_call_main (/usr/lib/libc.so.6)\n\n"
        "bigmont-speed 1/1 250000 cpu-clock:\n"
        "\t    6058 geteuid@plt (/b/bigmont-speed)\n"
        "\t   29d89 __libc_start_call_main (/usr/lib/libc.so.6)\n\n"
        "bigmont-speed 1/1 250000 cpu-clock:\n"
        "\t    6070 geteuid@plt (/b/bigmont-speed)\n"
        "\t    6040 munmap@plt (/usr/lib/libother.so)\n"
        "\t   29d89 __libc_start_call_main (/usr/lib/libc.so.6)\n\n")

    def test_entry_names(self):
        self.assertEqual(proflib.plt_entry_names(self.OBJDUMP, self.NM), [
            (0x6020, "[PLT0]"), (0x6030, "getegid@plt"), (0x6040, "big_mont_sqr_vec@plt"),
            (0x6050, "*ABS*+0x4ffff@plt"), (0x6060, "memcpy@plt")])

    def test_frames_renamed(self):
        entries = proflib.plt_entry_names(self.OBJDUMP, self.NM)
        text = proflib.rename_plt_frames(self.SCRIPT, entries, self.EXE)
        excl, incl, _, samples, _ = proflib.perf_counts(text)
        self.assertEqual(samples, 4)
        self.assertEqual(set(excl), {("big_mont_sqr_vec@plt", self.EXE),
                                     ("memcpy@plt", self.EXE),
                                     ("*ABS*+0x4ffff@plt", self.EXE),
                                     ("geteuid@plt", self.EXE)})
        # Past the last entry's 16 bytes the name stays perf's; another
        # object's frame is not the executable's PLT.
        self.assertIn(("munmap@plt", "libother.so"), incl)
        self.assertNotIn(("munmap@plt", self.EXE), incl)
        self.assertIn("a3880 big_crt_exp_mod_primes (/b/bigmont-speed)", text)

    def test_no_entries_no_change(self):
        self.assertEqual(proflib.rename_plt_frames(self.SCRIPT, [], self.EXE), self.SCRIPT)
        self.assertEqual(proflib.plt_names(os.path.join(DATA, "no-such-binary")), [])


class InlinedFrames(unittest.TestCase):
    """The function annotated is the one whose code ran: a sample in an
    inlined function counts for the function it was inlined into."""

    SCRIPT = """bigmont-speed 1/1 250000 cpu-clock:
\t    1000 big_mul_add_row (inlined)
\t    1000 big_mont_sqr_vec_c (/b/bigmont-speed)
\t    2000 main (/b/bigmont-speed)

bigmont-speed 1/1 250000 cpu-clock:
\t    1100 big_mul_add_row (inlined)
\t    1100 big_mont_sqr_vec_c (/b/bigmont-speed)
\t    2000 main (/b/bigmont-speed)

bigmont-speed 1/1 250000 cpu-clock:
\t    3000 big_mont_mul_vec_c (/b/bigmont-speed)
\t    2000 main (/b/bigmont-speed)
"""

    def test_inlined_samples_count_for_their_function(self):
        real = {}
        excl, _, _, samples, _ = proflib.perf_counts(self.SCRIPT, None, real)
        self.assertEqual(samples, 3)
        self.assertEqual(excl[("big_mul_add_row", "inlined")], 500000)
        self.assertEqual(excl.get(("big_mont_sqr_vec_c", "bigmont-speed"), 0), 0)
        self.assertEqual(real, {("big_mont_sqr_vec_c", "bigmont-speed"): 500000,
                                ("big_mont_mul_vec_c", "bigmont-speed"): 250000})


class CompareFold(unittest.TestCase):
    def test_variants_fold(self):
        _loader = importlib.machinery.SourceFileLoader(
            "profiles_compare", os.path.join(ROOT, "profiles", "compare"))
        spec = importlib.util.spec_from_loader("profiles_compare", _loader)
        compare = importlib.util.module_from_spec(spec)
        _loader.exec_module(compare)
        for name, folded in (("big_mont_sqr_vec_c", "big_mont_sqr_vec"),
                             ("big_mont_sqr_vec_adx_16", "big_mont_sqr_vec"),
                             ("big_mont_sqr_select_vec_adx_vl", "big_mont_sqr_select_vec"),
                             ("big_mont_sqr_select_vec_adx", "big_mont_sqr_select_vec"),
                             ("big_r52_dual_sqr20_ifma_intel", "big_r52_dual_sqr20_ifma_intel")):
            self.assertEqual(compare.FOLD_RE.sub("", name), folded)


class DefaultOutputChecked(unittest.TestCase):
    """The default profiles/<cpu>/ file is checked before profiling as
    --out is: not a regular file, or a folder no file can be made in, is
    exit 2; a missing CPU folder is made only when the file is written."""

    def test_checked_before_profiling(self):
        with tempfile.TemporaryDirectory() as t, \
                contextlib.redirect_stderr(io.StringIO()):
            here = record.HERE
            record.HERE = t
            try:
                a = record.parse_args(["--bits", "1024"])
                out = record.output_path(a)
                self.assertEqual(os.path.dirname(os.path.dirname(out)), t)
                self.assertFalse(os.path.exists(os.path.dirname(out)))
                os.makedirs(out)  # the file's name is a folder
                with self.assertRaises(SystemExit) as cm:
                    record.output_path(a)
                self.assertEqual(cm.exception.code, 2)
                os.rmdir(out)

                def refused(*args, **kwargs):
                    raise PermissionError(13, "Permission denied")
                mkstemp = record.tempfile.mkstemp
                record.tempfile.mkstemp = refused
                try:
                    with self.assertRaises(SystemExit) as cm:
                        record.output_path(a)
                    self.assertEqual(cm.exception.code, 2)
                finally:
                    record.tempfile.mkstemp = mkstemp
            finally:
                record.HERE = here


class Paths(unittest.TestCase):
    """Messages give a path back as the user gave it."""

    def test_given_path_as_given(self):
        self.assertEqual(record.shown("/a/b/probe/p.txt", "../probe/p.txt"), "../probe/p.txt")
        self.assertEqual(record.shown("/x/y.txt", "/x/y.txt"), "/x/y.txt")

    def test_default_path_relative_below_the_working_directory_else_absolute(self):
        cwd = os.getcwd()
        self.assertEqual(record.shown(os.path.join(cwd, "p", "q.txt")), os.path.join("p", "q.txt"))
        outside = os.path.join(os.path.dirname(cwd) or "/", "elsewhere-q.txt")
        if os.path.dirname(cwd) != cwd:
            self.assertEqual(record.shown(outside), outside)

    def test_compare_missing_file_one_line(self):
        missing = os.path.join(DATA, "no-such-profile.txt")
        p = subprocess.run([sys.executable, os.path.join(ROOT, "profiles", "compare"),
                            missing, missing], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=60)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stderr, "profiles/compare: error: %s: No such file or directory\n"
                         % missing)
        self.assertNotIn("Errno", p.stderr)
        self.assertEqual(p.stdout, "")


class OwnCommand(unittest.TestCase):
    def test_through_the_emulator_when_set(self):
        cmd = ["/b/bigmont-speed", "--help"]
        self.assertEqual(record.own_command(cmd, {"BIGMONT_EMULATOR": "/usr/bin/qemu-aarch64"}),
                         ["/usr/bin/qemu-aarch64"] + cmd)
        self.assertEqual(record.own_command(cmd, {"BIGMONT_EMULATOR": ""}), cmd)
        self.assertEqual(record.own_command(cmd, {}), cmd)


class VariantRefusedFirst(unittest.TestCase):
    """--variant V that this build or CPU cannot run: exit 2 and the
    program's reason, before any profiler runs (a stand-in perf and
    valgrind on PATH record whether they were started) and with no file."""

    def test_unavailable_variant(self):
        if BIGMONT is None:
            self.skipTest("no bigmont given")
        variant = "adx" if BUILD == "noasm" else "ifma"
        key = os.path.join(HERE, "data", "keys", "rsa1024-e65537.pem")
        probe = subprocess.run(own([BIGMONT, "key-info", key]), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=60,
                               env=dict(os.environ, BIGMONT_CPU=variant))
        if probe.returncode == 0:
            self.skipTest("this CPU runs %s" % variant)
        with tempfile.TemporaryDirectory() as tmp:
            started = os.path.join(tmp, "started")
            for tool in ("perf", "valgrind"):
                with open(os.path.join(tmp, tool), "w") as f:
                    f.write("#!/bin/sh\necho %s >> '%s'\nexit 1\n" % (tool, started))
                os.chmod(os.path.join(tmp, tool), 0o755)
            out = os.path.join(tmp, "p.txt")
            env = dict(os.environ, PATH=tmp + os.pathsep + os.environ.get("PATH", ""))
            env.pop("BIGMONT_CPU", None)
            p = subprocess.run([sys.executable, os.path.join(ROOT, "profiles", "record"),
                                "--bigmont", BIGMONT, "--variant", variant, "--bits", "1024",
                                "--seconds", "1", "--out", out], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True, env=env,
                               timeout=60)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertTrue(p.stderr.startswith(
                "profiles/record: error: --variant %s: BIGMONT_CPU=%s is not available here ("
                % (variant, variant)), p.stderr)
            self.assertEqual(p.stderr.count("\n"), 1, p.stderr)
            self.assertFalse(os.path.exists(started), "a profiler ran before the refusal")
            self.assertFalse(os.path.exists(out))


class ProfilerFailure(unittest.TestCase):
    """perf record failing (here a stand-in that fails as perf does on a
    full disk): exit 1 with perf's own message, not hidden by -q, and the
    room left where its data goes."""

    def test_perf_message_and_room(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "perf"), "w") as f:
                f.write("#!/bin/sh\ncase \"$*\" in *' -q '*) exit 255 ;; esac\n"
                        "echo 'failed to write perf data, error: No space left on device' >&2\n"
                        "exit 255\n")
            os.chmod(os.path.join(tmp, "perf"), 0o755)
            data = os.path.join(tmp, "data")
            os.mkdir(data)
            env = dict(os.environ, PATH=tmp + os.pathsep + os.environ.get("PATH", ""))
            a = argparse.Namespace(batch=False, bits=1024, seconds=1.0, threads=1)
            err = io.StringIO()
            with self.assertRaises(SystemExit) as cm, contextlib.redirect_stderr(err):
                record.profile_perf("/nowhere/bigmont-speed", a, env, "cpu-clock", data, "dwarf")
            self.assertEqual(cm.exception.code, 1)
            text = err.getvalue()
            self.assertTrue(text.startswith("profiles/record: error: perf record failed "
                                            "(status 255):\n  perf record -e cpu-clock "), text)
            self.assertIn("\nfailed to write perf data, error: No space left on device\n", text)
            self.assertRegex(text, r"\(its data goes to %s: \d+ MB free there; TMPDIR moves "
                             r"it\)\n$" % re.escape(data))


def declared_kernels():
    """`global NAME:function` names written out in asm/x86_64/*.asm
    (those built by a macro, like the tuned radix-2^52 ones, are left out)."""
    names = set()
    for path in glob.glob(os.path.join(ROOT, "asm", "x86_64", "*.asm")):
        with open(path) as f:
            for m in re.finditer(r"^\s*global\s+(big_\w+):function", f.read(), re.M):
                names.add(m.group(1))
    return names


class Binary(unittest.TestCase):
    def test_symbol_table(self):
        if BIGMONT is None:
            self.skipTest("no bigmont given")
        syms = proflib.nasm_kernels(BIGMONT)
        if BUILD == "noasm":
            self.assertEqual(syms, set())
            return
        declared = declared_kernels()
        self.assertTrue(declared)
        self.assertEqual(declared - syms, set())
        for k in ("big_r52_dual_sqr20_ifma_amd", "big_r52_dual_sqr20_ifma_intel",
                  "big_r52_dual_mul20_ifma_amd", "big_r52_dual_mul20_ifma_intel",
                  "big_mont_sqr_vec_adx_16"):
            self.assertIn(k, syms)
        for c in ("big_r52_dual_mul_ifma", "big_mont_sqr_vec_c", "big_mont_pow_ct",
                  "big_r52_dual_sqr20_ifma_asm"):
            self.assertNotIn(c, syms)
        # The kernels' loop labels (kernel.label) fold into their kernel.
        owners = proflib.nasm_labels(BIGMONT, syms)
        dotted = [n for n in owners if n.split(".")[0] in syms]
        self.assertIn("big_mont_sqr_vec_adx_16.redc_row", dotted)
        for n in dotted:
            self.assertEqual(owners[n], n.split(".")[0], n)


class Batch(unittest.TestCase):
    def parse(self, *argv):
        return record.parse_args(list(argv))

    def test_default_lanes(self):
        # The lanes the library takes: the C ones in the portable builds,
        # IFMA in the assembly build where the CPU has it, else the FMA
        # lanes in zmm (AVX-512F), else FMA, else AVX2; under valgrind AVX2
        # or C.
        self.assertEqual(record.default_lanes("chunk32"), "c")
        self.assertEqual(record.default_lanes("chunk64"), "c")
        real = record.proflib._cpuinfo_field
        try:
            for flags, want in (("fpu sse2 avx avx2 bmi2", "avx2"), ("fpu sse2 avx", "c"),
                                ("fpu fma avx2 bmi2", "fma"), ("fpu fma avx2 avx512f", "fma512"),
                                ("fpu avx2 avx512f avx512ifma", "ifma"), (None, "c")):
                record.proflib._cpuinfo_field = (
                    lambda name, flags=flags: flags if name == "flags" else real(name))
                self.assertEqual(record.default_lanes("chunk64-asm"), want, flags)
                self.assertEqual(record.default_lanes("chunk64"), "c", flags)
                if want == "fma":
                    self.assertEqual(record.default_lanes("chunk64-asm", valgrind=True), "avx2")
        finally:
            record.proflib._cpuinfo_field = real

    def test_speed_command(self):
        a = self.parse("--batch", "--bits", "4096", "--seconds", "3")
        self.assertEqual(record.speed_command("/b/bigmont", a),
                         ["/b/bigmont", "speed", "--bits", "4096", "--seconds", "3",
                          "--threads", "1", "--batch"])
        self.assertEqual(record.speed_command("/b/bigmont-speed", a)[:2],
                         ["/b/bigmont-speed", "--bits"])
        plain = record.speed_command("/b/bigmont", self.parse())
        self.assertNotIn("--batch", plain)
        self.assertEqual(plain[-2:], ["--compare", "none"])

    def test_file_name(self):
        with tempfile.TemporaryDirectory() as d:
            slug = record.proflib.cpu_slug
            record.proflib.cpu_slug = lambda: d
            try:
                names = [os.path.basename(record.output_path(self.parse(*argv)))
                         for argv in ([], ["--batch"], ["--batch", "--lanes", "c"],
                                      ["--variant", "adx", "--batch", "--lanes", "avx2",
                                       "--bits", "4096"])]
            finally:
                record.proflib.cpu_slug = slug
        self.assertEqual(names, ["chunk64-asm-rsa2048.txt", "chunk64-asm-batch-rsa2048.txt",
                                 "chunk64-asm-batch-c-rsa2048.txt",
                                 "chunk64-asm-adx-batch-avx2-rsa4096.txt"])

    def test_refused_options(self):
        for argv in (["--lanes", "c"], ["--batch", "--lanes", "sse"],
                     ["--preset", "chunk64", "--batch", "--lanes", "avx2"]):
            with self.assertRaises(SystemExit) as cm, \
                    open(os.devnull, "w") as null:
                saved, sys.stderr = sys.stderr, null
                try:
                    self.parse(*argv)
                finally:
                    sys.stderr = saved
            self.assertEqual(cm.exception.code, 2, argv)

    def test_bigmont_without_batch_is_refused(self):
        if BIGMONT is None:
            self.skipTest("no bigmont given")
        speed = os.path.join(os.path.dirname(BIGMONT), "bigmont-speed")
        help_text = subprocess.run(own([speed, "--help"]), stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, universal_newlines=True).stdout
        if re.search(r"(^|\s)--batch\b", help_text):
            self.skipTest("this bigmont speed has --batch (profiles_selftest-style runs cover it)")
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "p.txt")
            p = subprocess.run([sys.executable, os.path.join(ROOT, "profiles", "record"),
                                "--bigmont", BIGMONT, "--batch", "--seconds", "1",
                                "--out", out],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn("has no --batch option", p.stderr)
            self.assertFalse(os.path.exists(out))


# `bigmont speed --batch` output (bench/batch.c), cut to what record reads:
# the RSA-1024 table of the AVX2 lanes measured (BIGMONT_BATCH=avx2), of a
# build or CPU without them asked for them, and of a build for another
# architecture (no AVX2 row).
BATCH_AVX2_RAN = """\
  batch     rsa_private_batch: 8 operations a call, 4 per lane exponentiation (2 CRT halves each, 8 lanes); lane kernel 'avx2' (BIGMONT_BATCH: only that lane row)

RSA-1024 private key (embedded:rsa1024.pem): 8 operations per round, 5 rounds in 0.20 s, interleaved
  implementation    kernel              median ns/op    min ns/op    cpu ns/op   min cpu ns     ops/s  /single /openssl
  ours-single       adx                       120844       112574       121276       113053      8246    1.000    0.839
  ours-batch-avx2   AVX2 lanes                102234        90977       102644        91320      9742    0.846    0.710
  ours-batch-c      not run: BIGMONT_BATCH=avx2
  openssl-noblind   blinding off              167831       126554       144576       127096      6917    1.192    1.000
"""
BATCH_AVX2_NOT_RUN = """\
  batch     rsa_private_batch: 8 operations a call, 4 per lane exponentiation (2 CRT halves each, 8 lanes); lane kernel 'avx2' (BIGMONT_BATCH: only that lane row)

RSA-1024 private key (embedded:rsa1024.pem): 8 operations per round, 5 rounds in 0.20 s, interleaved
  implementation    kernel              median ns/op    min ns/op    cpu ns/op   min cpu ns     ops/s  /single /openssl
  ours-single       c                         420844       412574       421276       413053      2374    1.000    2.913
  ours-batch-avx2   not run: no AVX2 build or CPU
  ours-batch-c      portable C lanes         4474649      3756394      2310946      2288631       433    5.486   15.984
  openssl-noblind   blinding off              167831       126554       144576       127096      6917    0.343    1.000
"""
BATCH_NO_AVX2_ROW = """\
  implementation    kernel              median ns/op    min ns/op    cpu ns/op   min cpu ns     ops/s  /single /openssl
  ours-single       c                         420844       412574       421276       413053      2374    1.000    2.913
  ours-batch-c      portable C lanes         4474649      3756394      2310946      2288631       433    5.486   15.984
  openssl-noblind   blinding off              167831       126554       144576       127096      6917    0.343    1.000
"""


class BatchLanesChecked(unittest.TestCase):
    """A --batch profile is named for the lanes `bigmont speed --batch`
    says it ran: otherwise an error saying what it printed, before any
    profiler runs (stand-ins for perf and valgrind on PATH record whether
    they were started) or after the profiled run, and no file."""

    def record_batch(self, bigmont, env, lanes, out):
        """profiles/record --batch --lanes lanes on the stand-in bigmont."""
        return subprocess.run([sys.executable, os.path.join(ROOT, "profiles", "record"),
                               "--bigmont", bigmont, "--batch", "--lanes", lanes,
                               "--seconds", "1", "--out", out],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, env=env, timeout=60)

    def test_rows(self):
        self.assertIsNone(record.batch_lanes_missing(BATCH_AVX2_RAN, "avx2"))
        self.assertIsNone(record.batch_lanes_missing(BATCH_AVX2_NOT_RUN, "c"))
        self.assertIsNone(record.batch_lanes_missing(BATCH_NO_AVX2_ROW, "c"))
        self.assertEqual(record.batch_lanes_missing(BATCH_AVX2_NOT_RUN, "avx2"),
                         "its ours-batch-avx2 row says 'not run: no AVX2 build or CPU'")
        self.assertEqual(record.batch_lanes_missing(BATCH_AVX2_RAN, "c"),
                         "its ours-batch-c row says 'not run: BIGMONT_BATCH=avx2'")
        self.assertEqual(record.batch_lanes_missing(BATCH_NO_AVX2_ROW, "avx2"),
                         "it printed no ours-batch-avx2 row")
        self.assertEqual(record.batch_lanes_missing("", "c"), "it printed no ours-batch-c row")
        # The thread table's rows (name, T, numbers) are not a kernel.
        self.assertIsNotNone(record.batch_lanes_missing(
            "  ours-batch-avx2      2        19000        9500   105263\n", "avx2"))

    def stand_ins(self, tmp, batch_output, status=0, error=""):
        """A bigmont in tmp whose speed --help has --batch and whose speed
        --batch prints batch_output (and error on stderr) and exits status;
        perf and valgrind that record being started; the environment that
        finds them (no emulator)."""
        for name, text in (("batch.txt", batch_output), ("error.txt", error)):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        scripts = {
            "bigmont": "#!/bin/sh\ncase \"$*\" in\n"
                       "*--help*) echo '  --batch           the batch rows' ;;\n"
                       "*) cat '%s'; cat '%s' >&2; exit %d ;;\nesac\n"
                       % (os.path.join(tmp, "batch.txt"), os.path.join(tmp, "error.txt"),
                          status),
            "perf": "#!/bin/sh\necho perf >> '%s'\nexit 1\n" % os.path.join(tmp, "started"),
            "valgrind": "#!/bin/sh\necho valgrind >> '%s'\nexit 1\n"
                        % os.path.join(tmp, "started"),
        }
        for name, text in scripts.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
            os.chmod(os.path.join(tmp, name), 0o755)
        env = dict(os.environ, PATH=tmp + os.pathsep + os.environ.get("PATH", ""))
        env.pop("BIGMONT_EMULATOR", None)
        env.pop("BIGMONT_BATCH", None)
        return os.path.join(tmp, "bigmont"), env

    def test_refused_before_profiling(self):
        for lanes, output, why in (
                ("avx2", BATCH_AVX2_NOT_RUN,
                 "its ours-batch-avx2 row says 'not run: no AVX2 build or CPU'"),
                ("avx2", BATCH_NO_AVX2_ROW, "it printed no ours-batch-avx2 row"),
                ("c", BATCH_AVX2_RAN, "its ours-batch-c row says 'not run: BIGMONT_BATCH=avx2'")):
            with tempfile.TemporaryDirectory() as tmp:
                bigmont, env = self.stand_ins(tmp, output)
                out = os.path.join(tmp, "p.txt")
                p = self.record_batch(bigmont, env, lanes, out)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertEqual(
                    p.stderr, "profiles/record: error: --batch: bigmont speed did not run the "
                    "%s lanes asked for (BIGMONT_BATCH=%s): %s; no profile written\n"
                    % (lanes, lanes, why))
                self.assertEqual(p.stdout, "")
                self.assertFalse(os.path.exists(os.path.join(tmp, "started")),
                                 "a profiler ran before the refusal")
                self.assertFalse(os.path.exists(out))

    def test_failed_batch_run_before_profiling(self):
        with tempfile.TemporaryDirectory() as tmp:
            bigmont, env = self.stand_ins(
                tmp, "", 1, "bigmont: error: embedded:rsa1024.pem: ours-batch-avx2 gives a "
                "wrong answer (not GMP's)\n")
            out = os.path.join(tmp, "p.txt")
            p = self.record_batch(bigmont, env, "avx2", out)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertEqual(
                p.stderr, "profiles/record: error: %s speed --bits 1024 --seconds 0.01 --batch "
                "failed (status 1): embedded:rsa1024.pem: ours-batch-avx2 gives a wrong answer "
                "(not GMP's)\n" % bigmont)
            self.assertFalse(os.path.exists(os.path.join(tmp, "started")))
            self.assertFalse(os.path.exists(out))

    def test_profiled_run_checked(self):
        """The short run had the lanes and the profiled one did not: exit 2
        when --lanes asked for them, 1 when they were record's default."""
        for argv, output, code, how in (
                (["--lanes", "avx2"], BATCH_AVX2_NOT_RUN, 2, "asked for"),
                ([], BATCH_AVX2_NOT_RUN, 1, "taken by default")):
            with tempfile.TemporaryDirectory() as tmp:
                bigmont, env = self.stand_ins(tmp, BATCH_AVX2_RAN)
                out = os.path.join(tmp, "p.txt")
                rows = [proflib.Row(90.0, 100.0, 9, 10, "lv_mul", "bigmont")]
                saved = (record.profile_perf, record.proflib.perf_event, record.default_lanes,
                         dict(os.environ))
                record.profile_perf = lambda *args: (output, [], rows, "samples", "", "", [])
                record.proflib.perf_event = lambda: ("cpu-clock", "")
                record.default_lanes = lambda preset: "avx2"
                os.environ.clear()
                os.environ.update(env)
                err = io.StringIO()
                try:
                    with self.assertRaises(SystemExit) as cm, \
                            contextlib.redirect_stderr(err):
                        record.main(["--bigmont", bigmont, "--batch", "--seconds", "1",
                                     "--out", out] + argv)
                finally:
                    (record.profile_perf, record.proflib.perf_event,
                     record.default_lanes) = saved[:3]
                    os.environ.clear()
                    os.environ.update(saved[3])
                self.assertEqual(cm.exception.code, code, err.getvalue())
                self.assertEqual(
                    err.getvalue(), "profiles/record: error: --batch: bigmont speed did not "
                    "run the avx2 lanes %s (BIGMONT_BATCH=avx2): its ours-batch-avx2 row says "
                    "'not run: no AVX2 build or CPU'; no profile written\n" % how)
                self.assertFalse(os.path.exists(out))
                self.assertFalse(os.path.exists(os.path.join(tmp, "started")))

    def test_lanes_ran_is_written(self):
        """The same stand-ins with the lanes run: the profile is written."""
        with tempfile.TemporaryDirectory() as tmp:
            bigmont, env = self.stand_ins(tmp, BATCH_AVX2_RAN)
            out = os.path.join(tmp, "p.txt")
            rows = [proflib.Row(90.0, 100.0, 9, 10, "lv_mul", "bigmont")]
            saved = (record.profile_perf, record.proflib.perf_event, dict(os.environ))
            record.profile_perf = lambda *args: (BATCH_AVX2_RAN, [], rows, "samples", "", "", [])
            record.proflib.perf_event = lambda: ("cpu-clock", "")
            os.environ.clear()
            os.environ.update(env)
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    self.assertEqual(record.main(["--bigmont", bigmont, "--batch", "--lanes",
                                                  "avx2", "--seconds", "1", "--out", out]), 0)
            finally:
                record.profile_perf, record.proflib.perf_event = saved[:2]
                os.environ.clear()
                os.environ.update(saved[2])
            with open(out) as f:
                text = f.read()
            self.assertIn("batched in the avx2 lanes", text)
            self.assertIn("ours-batch-avx2   AVX2 lanes", text)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[2] in ("asm", "noasm"):
        BIGMONT, BUILD = sys.argv[1], sys.argv[2]
        del sys.argv[1:3]
    unittest.main(verbosity=2)
