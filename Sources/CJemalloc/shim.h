// jemalloc, the allocator the glossary binary uses instead of glibc's (see FreedMemory.swift and the README).
#ifndef GLOSSARY_CJEMALLOC_SHIM_H
#define GLOSSARY_CJEMALLOC_SHIM_H
#include <jemalloc/jemalloc.h>
#include <stdio.h>
#include <sys/types.h>

/// Whether the process's malloc is jemalloc: true once this binary links it ahead of glibc.
static inline int glossary_jemalloc_is_active(void) {
    const char *version = NULL;
    size_t size = sizeof(version);
    return mallctl("version", &version, &size, NULL, 0) == 0 && version != NULL;
}

/// How long a freed page stays resident before it goes back to the system, for every arena (now and later).
/// Returns 0, or an errno value.
static inline int glossary_jemalloc_set_decay(ssize_t milliseconds) {
    int failure = mallctl("arenas.dirty_decay_ms", NULL, NULL, &milliseconds, sizeof(milliseconds));
    if (failure != 0) return failure;
    unsigned arenas = 0;
    size_t size = sizeof(arenas);
    if ((failure = mallctl("arenas.narenas", &arenas, &size, NULL, 0)) != 0) return failure;
    for (unsigned arena = 0; arena < arenas; arena++) {
        char name[64];
        snprintf(name, sizeof(name), "arena.%u.dirty_decay_ms", arena);
        // An arena not made yet takes the default just set.
        mallctl(name, NULL, NULL, &milliseconds, sizeof(milliseconds));
    }
    return 0;
}
#endif
