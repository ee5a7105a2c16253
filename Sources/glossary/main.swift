import Foundation
import GlossaryCLI

exit(await GlossaryTool.run(CommandLine.arguments))
