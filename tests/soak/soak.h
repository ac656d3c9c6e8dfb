/* tests/soak/soak.h - the soak (make soak): see tests/soak/soak.c. */
#ifndef SOAK_SOAK_H
#define SOAK_SOAK_H

#include "lib/compiler.h"

bool soak_run(unsigned long seconds);

#endif
