/* The job-file fuzz target, shared by libFuzzer's entry point and the
 * standalone replay driver. */
#ifndef SB_FUZZ_JOBFILE_H
#define SB_FUZZ_JOBFILE_H

#include <stddef.h>
#include <stdint.h>

/* Read data as the job file name (includes resolve beside it), then use
 * the result as the CLI and runner would. abort()s when the reader breaks
 * a promise: an error without a message, a job set that is inconsistent. */
int sb_fuzz_jobfile_one(const char *name, const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
