import Foundation
import GlossaryCLI
import GlossaryKit

// Before anything is allocated: big buffers go back to the system when freed (see `FreedMemory`).
FreedMemory.mapLargeBlocksApart()
exit(await GlossaryTool.run(CommandLine.arguments))
