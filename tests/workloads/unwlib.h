/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unwlib: what the unwind workload calls in its shared library. */
#ifndef PROF_TESTS_UNWLIB_H
#define PROF_TESTS_UNWLIB_H

unsigned long unw_leaf(unsigned long n);
unsigned long unw_mid(unsigned long n);
/* libunwdbf.so: CFI only in a separate debug file's .debug_frame */
unsigned long dbf_mid(unsigned long n);
/* libunwfp.so: no CFI at all, frame pointers */
unsigned long fp_mid(unsigned long n);

#endif
