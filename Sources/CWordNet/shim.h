#ifndef GLOSSARY_CWORDNET_SHIM_H
#define GLOSSARY_CWORDNET_SHIM_H

#include <wn.h>

// libwordnet's globals are mutable C state that Swift 6 won't touch directly, and SYNS is a macro
// expression Swift does not import: typed wrappers for what the Swift side needs.

/// Routes libwordnet's error and warning messages (`display_message`) to `handler`.
static inline void glossary_wn_set_message_handler(int (*handler)(char *)) { display_message = handler; }

/// The licence text the header carries (`license`).
static inline const char *glossary_wn_license(void) { return license; }

/// The synonym search (`SYNS`) for `findtheinfo_ds`.
static inline int glossary_wn_synonym_search(void) { return SYNS; }

#endif
