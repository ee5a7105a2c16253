import Foundation
import GlossaryKit

#if canImport(Glibc)
    import Glibc
#endif

/// `glossary lsp`: the Language Server Protocol over stdin and stdout, for the sites of the editor's workspace.
struct LSPCommand: Command {
    static let name = "lsp"
    static let abstract = "Run a language server for editors (LSP over stdin/stdout)"
    static let discussion = """
        Speaks the Language Server Protocol 3.17 on stdin and stdout for the sites whose glossary.yml is at or above
        the workspace folders. Offers: diagnostics as you type (every problem glossary check reports, from the unsaved
        text; definitions from the team's entries, the cache and WordNet, never the network), completion after [[ and
        | and inside [[word (, hover with the definition's card, go to definition, find references, document and
        workspace symbols, rename of a team term, and code actions (create an entry, did you mean, link this word).
        Files changed outside the editor are read again. Writes nothing but protocol messages on stdout; exits when
        stdin closes or on the exit notification.
        """
    static let options: [Option] = []

    static func run(_ parsed: ParsedArguments, context: CommandContext) async throws(UsageError) -> Int32 {
        try parsed.expectNoPositional()
        let writer = MessageWriter(descriptor: STDOUT_FILENO)
        let ledger = RequestLedger()
        let server = LanguageServer(writer: writer, ledger: ledger)
        let (messages, continuation) = AsyncStream.makeStream(of: JSONRPC.Message.self, bufferingPolicy: .unbounded)
        // One thread reads stdin, blocked in read(2) (which would hold one of the few threads Swift's tasks share): it
        // sees `$/cancelRequest` and `exit` while requests run.
        let reader = Thread {
            MessageFraming.read(from: STDIN_FILENO) { frame in
                switch frame.mapError(JSONRPC.Rejection.init).flatMap(JSONRPC.parse) {
                case .failure(let problem):
                    writer.send(JSONRPC.response(id: problem.id, failure: problem.failure))
                case .success(.notification(method: "exit", _)):
                    Glibc.exit(ledger.isShutDown ? 0 : 1)
                case .success(.notification(method: "$/cancelRequest", let params)):
                    if let id = params["id"] { ledger.cancel(id) }
                case .success(let message):
                    continuation.yield(message)
                }
            }
            // Stdin closed: the client is gone, whatever is running (0 only after a shutdown request, as for `exit`).
            Glibc.exit(ledger.isShutDown ? 0 : 1)
        }
        reader.stackSize = 1 << 22
        reader.start()
        for await message in messages { await server.handle(message) }
        // The reader ends the process; the stream never finishes.
        return ExitCode.success
    }
}
