// Linux system calls Glibc's Swift module doesn't show (they need _GNU_SOURCE), as typed inline wrappers.
#ifndef GLOSSARY_CSYSTEM_SHIM_H
#define GLOSSARY_CSYSTEM_SHIM_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <unistd.h>

/// Swaps two paths in one step (renameat2 with RENAME_EXCHANGE): both exist before and after, with each
/// other's contents, and no reader ever finds either missing. Returns 0, or -1 with errno set.
static inline int glossary_rename_exchange(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
}

/// renameat2 with RENAME_NOREPLACE: fails with EEXIST instead of replacing an existing destination.
static inline int glossary_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

/// Gives the pages of freed memory back to the system, in every arena: jemalloc's purge when the process's malloc
/// is jemalloc (the glossary binary links it; found by name, so a program without it needs nothing), else glibc's
/// malloc_trim — glibc keeps what a thread freed for that thread's next allocations, which a build that is done with
/// its trees never makes.
static inline void glossary_trim_heap(void) {
    typedef int (*control)(const char *, void *, size_t *, void *, size_t);
    control mallctl = (control)dlsym(RTLD_DEFAULT, "mallctl");
    if (mallctl != NULL && mallctl("arena.4096.purge", NULL, NULL, NULL, 0) == 0) return;
    malloc_trim(0);
}

/// Blocks of `bytes` and more are mapped on their own and unmapped when freed (mallopt M_MMAP_THRESHOLD, which
/// also stops glibc raising that threshold to the largest block freed so far). Returns 1 on success.
static inline int glossary_map_blocks_from(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

/// Copies `length` bytes from `from` at `offset` to the end of `to` inside the kernel (copy_file_range); returns the
/// bytes copied, or -1 with errno set.
static inline long glossary_copy_range(int from, long offset, int to, long length) {
    off_t position = offset;
    return (long)copy_file_range(from, &position, to, NULL, (size_t)length, 0);
}

#endif
