/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unwlib: what the unwind workload calls in its shared library. */
#ifndef PROF_TESTS_UNWLIB_H
#define PROF_TESTS_UNWLIB_H

unsigned long unw_leaf(unsigned long n);
unsigned long unw_mid(unsigned long n);

#endif
