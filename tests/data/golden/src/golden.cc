// SPDX-License-Identifier: GPL-2.0-or-later
// The program the golden profiles point into (tests/golden/): a few
// functions of known names, one in a namespace (a mangled name), one
// inlined into another (an inline frame, with its own source line).
// Built once by make-golden.sh and committed with its build id; never
// run by the tests.

static inline __attribute__((always_inline)) int step(int s, int i)
{
	return s * 31 + i;	// leaf_a's time: an inline frame
}

extern "C" __attribute__((noinline)) int leaf_a(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s = step(s, i);
	return s;
}

extern "C" __attribute__((noinline)) int leaf_b(int n)
{
	int s = 1;

	for (int i = 0; i < n; i++)
		s ^= s << 3 | i;
	return s;
}

namespace work {
__attribute__((noinline)) int spin(int n)
{
	return leaf_a(n) ^ leaf_b(n);
}
} // namespace work

extern "C" __attribute__((noinline)) int mid(int n)
{
	return work::spin(n) + leaf_b(n / 2);
}

int main(int argc, char **)
{
	return mid(argc * 1000) & 1;
}
