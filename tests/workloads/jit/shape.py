# SPDX-License-Identifier: GPL-2.0-or-later
# A Python program of known shape for the JIT tests: leaf_a, leaf_b and
# leaf_c share its CPU time 6:3:1, each called from main. Each leaf spins
# on its own loop until it has used its share of a 10 ms slice of CPU.
# Run: python3.12 -X perf shape.py SECONDS (or -X perf_jit on 3.13)
import sys
import time


def leaf_a(ms):
    end = time.process_time() + ms / 1000
    x = 1.0
    while time.process_time() < end:
        for i in range(2000):
            x = x * 1.0000001 + i
    return x


def leaf_b(ms):
    end = time.process_time() + ms / 1000
    x = 2.0
    while time.process_time() < end:
        for i in range(2000):
            x = x * 1.0000002 + i
    return x


def leaf_c(ms):
    end = time.process_time() + ms / 1000
    x = 3.0
    while time.process_time() < end:
        for i in range(2000):
            x = x * 1.0000003 + i
    return x


def main():
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 1
    end = time.monotonic() + secs
    sink = 0.0
    while time.monotonic() < end:
        sink += leaf_a(6) + leaf_b(3) + leaf_c(1)
    if sink == 42:
        print(sink)


main()
