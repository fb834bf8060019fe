/*
 * A kernel's output vector between guard chunks: a kernel that writes
 * outside r[0 .. len) changes a guard.
 */
#ifndef BIGMONT_GUARDED_H
#define BIGMONT_GUARDED_H

#include <cstring>
#include <vector>

#include "testutil.h"

namespace bt {

class Guarded {
public:
	explicit Guarded(int len) : buf_(static_cast<size_t>(len + 2 * kGuardChunks), kGuard), len_(len) {}
	chunk *r() { return buf_.data() + kGuardChunks; }
	/* r = v (v has len chunks). */
	void set(const std::vector<chunk> &v)
	{
		if (len_ > 0)
			std::memcpy(r(), v.data(), sizeof(chunk) * static_cast<size_t>(len_));
	}
	std::vector<chunk> value() const
	{
		return std::vector<chunk>(buf_.begin() + kGuardChunks, buf_.begin() + kGuardChunks + len_);
	}
	bool guards_intact() const
	{
		for (size_t i = 0; i < kGuardChunks; i++)
			if (buf_[i] != kGuard || buf_[buf_.size() - 1 - i] != kGuard)
				return false;
		return true;
	}

private:
	static constexpr chunk kGuard = static_cast<chunk>(0xa5c3a5c3a5c3a5c3ULL);
	static constexpr size_t kGuardChunks = 4;
	std::vector<chunk> buf_;
	int len_;
};

} // namespace bt

#endif
