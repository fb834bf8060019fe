/*
 * An environment variable set (or unset) for one scope, and put back as
 * it was when the scope ends: the tests of what BIGMONT_CPU, BIGMONT_BATCH
 * and BIGMONT_TUNE do, which must not leak a value into the next test.
 */
#ifndef BIGMONT_SCOPED_ENV_H
#define BIGMONT_SCOPED_ENV_H

#include <cstdlib>
#include <string>

namespace bt {

class ScopedEnv {
public:
	/* name=value, or name unset for a null value. */
	ScopedEnv(const char *name, const char *value) : name_(name)
	{
		const char *was = std::getenv(name);
		had_ = was != nullptr;
		if (had_)
			was_ = was;
		set(value);
	}
	~ScopedEnv()
	{
		if (had_)
			setenv(name_.c_str(), was_.c_str(), 1);
		else
			unsetenv(name_.c_str());
	}
	ScopedEnv(const ScopedEnv &) = delete;
	ScopedEnv &operator=(const ScopedEnv &) = delete;

	void set(const char *value)
	{
		if (value != nullptr)
			setenv(name_.c_str(), value, 1);
		else
			unsetenv(name_.c_str());
	}

private:
	std::string name_, was_;
	bool had_ = false;
};

/* BIGMONT_BATCH=kernel for a scope, or unset for nullptr: the library's
 * own choice. */
class BatchEnv : public ScopedEnv {
public:
	explicit BatchEnv(const char *kernel) : ScopedEnv("BIGMONT_BATCH", kernel) {}
};

} // namespace bt

#endif
