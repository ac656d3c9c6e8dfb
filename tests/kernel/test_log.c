/*
 * tests/kernel/test_log.c - the buffer of test_log.h: one for every suite
 * that reads the log (they run one at a time).  No suite here.
 */
#include "test_log.h"

char test_log_buf[16384];
