/* tests/torture/torture.h - the allocator torture test (make torture): see torture.c. */
#ifndef TORTURE_TORTURE_H
#define TORTURE_TORTURE_H

#include "lib/compiler.h"

bool torture_run(void);

#endif
