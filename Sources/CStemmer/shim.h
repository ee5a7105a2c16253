#ifndef GLOSSARY_CSTEMMER_SHIM_H
#define GLOSSARY_CSTEMMER_SHIM_H

// Snowball's stemmers (Debian's libstemmer-dev). A stemmer object holds the buffer its last stem is in: one thread
// at a time per object.
#include <libstemmer.h>

#endif
