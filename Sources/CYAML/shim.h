#ifndef GLOSSARY_CYAML_SHIM_H
#define GLOSSARY_CYAML_SHIM_H

// libyaml's event API is imported as is; Config/YAMLNode.swift is its only user.
#include <yaml.h>

#endif
