#ifndef GLOSSARY_CXML2_SHIM_H
#define GLOSSARY_CXML2_SHIM_H

// libxml2 (Debian's libxml2-dev), for reading TBX files.
//
// Debian builds libxml2 with ICU, and its encoding.h then includes ICU's headers, whose enums clash with the ICU
// Foundation carries. Nothing here uses libxml2's ICU converters (a struct behind a pointer we never follow), so
// the headers are read without them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>

// `xmlFree` is a global function pointer, which Swift 6 won't read: a typed wrapper.
static inline void glossary_xml_free(void *pointer) { xmlFree(pointer); }

#endif
