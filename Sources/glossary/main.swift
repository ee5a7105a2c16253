import CJemalloc
import Foundation
import GlossaryCLI
import GlossaryKit

// Before anything else is allocated. The binary's malloc is jemalloc (linked ahead of glibc's): freed pages go back to
// the system after a second instead of jemalloc's default ten, which keeps a build's peak resident size where glibc's
// allocator had it (see `FreedMemory`). Were glibc's malloc in use, its big blocks are mapped apart instead.
if glossary_jemalloc_is_active() != 0 {
    _ = glossary_jemalloc_set_decay(1000)
} else {
    FreedMemory.mapLargeBlocksApart()
}
exit(await GlossaryTool.run(CommandLine.arguments))
