/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The vendored v6.1 kselftest_harness.h, included so that it builds quietly
 * under the project's warning flags (-Wextra -Wmissing-prototypes) without
 * editing the vendored file:
 *  - it defines two non-static functions (__wait_for_test, __run_test);
 *  - its EXPECT_*() compare __typeof__(expected) with __typeof__(seen), so
 *    EXPECT_EQ(42, u32_field) is an int/unsigned comparison. Sign-compare is
 *    off for the whole test file: the values compared are small constants.
 */
#ifndef FTD_UNIT_HARNESS_H
#define FTD_UNIT_HARNESS_H

#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wmisleading-indentation"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#endif /* FTD_UNIT_HARNESS_H */
