// SPDX-License-Identifier: GPL-2.0-or-later
// A C++ program of known shape, built by tests/run-native.sh with clang++
// and lld: work::leaf_a, work::leaf_b and work::leaf_c (each taking
// parameters, so that their mangled names carry them) share its time
// 6:3:1, in work::Grid<long>::spin.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sys/resource.h>

namespace work {
template <typename T> struct Grid {
	T seed;
	__attribute__((noinline)) T spin(int n) const
	{
		volatile T x = seed + n;
		for (int i = 0; i < 200000; i++)
			x = x * 1664525 + i;
		return x;
	}
};

__attribute__((noinline)) long leaf_a(const Grid<long> &g, int n) { return g.spin(n) ^ 1; }
__attribute__((noinline)) long leaf_b(const Grid<long> &g, long n) { return g.spin((int)n) ^ 2; }
__attribute__((noinline)) long leaf_c(const Grid<long> &g, double n) { return g.spin((int)n) ^ 3; }
} // namespace work

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(secs);
	work::Grid<long> g{7};
	long acc = 0;

	while (std::chrono::steady_clock::now() < end) {
		for (int i = 0; i < 6; i++)
			acc += work::leaf_a(g, i);
		for (int i = 0; i < 3; i++)
			acc += work::leaf_b(g, i);
		acc += work::leaf_c(g, 1.0);
	}
	printf("%ld\n", acc & 1);
	// as the C workloads do (workload.h): the CPU seconds used, for floors
	if (const char *path = getenv("PROF_WORKLOAD_CPU")) {
		struct rusage ru;
		FILE *f = getrusage(RUSAGE_SELF, &ru) == 0 ? fopen(path, "a") : nullptr;

		if (f) {
			fprintf(f, "%.6f\n", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
						ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
			fclose(f);
		}
	}
	return 0;
}
