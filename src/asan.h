/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PROF_ASAN: 1 when built with AddressSanitizer (gcc says so by
 * __SANITIZE_ADDRESS__, clang by __has_feature), else 0: whose allocator
 * hands out memory, and whether an exit must free all for the leak check.
 */
#ifndef PROF_ASAN_H
#define PROF_ASAN_H

#if defined(__SANITIZE_ADDRESS__)
#define PROF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROF_ASAN 1
#endif
#endif
#ifndef PROF_ASAN
#define PROF_ASAN 0
#endif

#endif
