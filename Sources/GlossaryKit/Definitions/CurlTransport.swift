import CCurl
import Foundation
import Synchronization

/// libcurl's functions, from `libcurl.so.4` loaded the first time a transfer (or `glossary --version`) needs it: most
/// runs fetch nothing, and libcurl with the TLS, LDAP and Kerberos libraries it brings is 20 of the 47 libraries the
/// process would otherwise load and relocate at every start. Loaded once, with `curl_global_init` done before any
/// other call, as libcurl asks.
private struct Curl: @unchecked Sendable {
    let globalInit: glossary_curl_global_init_fn
    let versionInfo: glossary_curl_version_info_fn
    let slistAppend: glossary_curl_slist_append_fn
    let slistFreeAll: glossary_curl_slist_free_all_fn
    let easyInit: glossary_curl_easy_init_fn
    let easyCleanup: glossary_curl_easy_cleanup_fn
    let easyStrerror: glossary_curl_easy_strerror_fn
    let easyHeader: glossary_curl_easy_header_fn
    let multiInit: glossary_curl_multi_init_fn
    let multiCleanup: glossary_curl_multi_cleanup_fn
    let multiAddHandle: glossary_curl_multi_add_handle_fn
    let multiRemoveHandle: glossary_curl_multi_remove_handle_fn
    let multiPerform: glossary_curl_multi_perform_fn
    let multiPoll: glossary_curl_multi_poll_fn
    let multiWakeup: glossary_curl_multi_wakeup_fn
    let multiInfoRead: glossary_curl_multi_info_read_fn
    let multiStrerror: glossary_curl_multi_strerror_fn
    /// The variadic ones, called through the shim's typed wrappers.
    let easySetopt: UnsafeMutableRawPointer
    let easyGetinfo: UnsafeMutableRawPointer
    let multiSetopt: UnsafeMutableRawPointer

    /// libcurl, or why it can't be used (not installed, a symbol missing, `curl_global_init` failing).
    static let loaded: Result<Curl, TransportFailure> = {
        let found = SharedLibrary.load("libcurl.so.4") { library in
            Curl(
                globalInit: library.function("curl_global_init", as: glossary_curl_global_init_fn.self),
                versionInfo: library.function("curl_version_info", as: glossary_curl_version_info_fn.self),
                slistAppend: library.function("curl_slist_append", as: glossary_curl_slist_append_fn.self),
                slistFreeAll: library.function("curl_slist_free_all", as: glossary_curl_slist_free_all_fn.self),
                easyInit: library.function("curl_easy_init", as: glossary_curl_easy_init_fn.self),
                easyCleanup: library.function("curl_easy_cleanup", as: glossary_curl_easy_cleanup_fn.self),
                easyStrerror: library.function("curl_easy_strerror", as: glossary_curl_easy_strerror_fn.self),
                easyHeader: library.function("curl_easy_header", as: glossary_curl_easy_header_fn.self),
                multiInit: library.function("curl_multi_init", as: glossary_curl_multi_init_fn.self),
                multiCleanup: library.function("curl_multi_cleanup", as: glossary_curl_multi_cleanup_fn.self),
                multiAddHandle: library.function("curl_multi_add_handle", as: glossary_curl_multi_add_handle_fn.self),
                multiRemoveHandle: library.function("curl_multi_remove_handle", as: glossary_curl_multi_remove_handle_fn.self),
                multiPerform: library.function("curl_multi_perform", as: glossary_curl_multi_perform_fn.self),
                multiPoll: library.function("curl_multi_poll", as: glossary_curl_multi_poll_fn.self),
                multiWakeup: library.function("curl_multi_wakeup", as: glossary_curl_multi_wakeup_fn.self),
                multiInfoRead: library.function("curl_multi_info_read", as: glossary_curl_multi_info_read_fn.self),
                multiStrerror: library.function("curl_multi_strerror", as: glossary_curl_multi_strerror_fn.self),
                easySetopt: library.symbol("curl_easy_setopt"), easyGetinfo: library.symbol("curl_easy_getinfo"),
                multiSetopt: library.symbol("curl_multi_setopt"))
        }
        let curl: Curl
        switch found {
        case .success(let found): curl = found
        case .failure(let error): return .failure(unavailable(error.reason))
        }
        let initialized = curl.globalInit(glossary_curl_global_all())
        guard initialized == CURLE_OK else { return .failure(unavailable("curl_global_init failed (\(initialized.rawValue))")) }
        return .success(curl)
    }()

    private static func unavailable(_ reason: String) -> TransportFailure {
        TransportFailure(.network, detail: "libcurl can't be used: \(reason)")
    }
}

/// The dictionary client's HTTP transport: libcurl's multi interface, run by one dedicated thread.
///
/// Up to `maxConcurrent` transfers run at once; further requests wait in a queue, and the loop starts the
/// next one the moment another finishes, without a round trip through Swift's task scheduler (our own
/// window, rather than `CURLMOPT_MAX_TOTAL_CONNECTIONS`, whose queued transfers sometimes sat out a whole
/// poll timeout). Before each start the loop asks the `pacer`, so the rate limit and a 429's pause apply to
/// the moment requests leave; once the pacer says the client has stopped asking, queued requests are answered
/// `notSent` without a connection and those under way are abandoned the same way, and a request that never
/// reached a server gives its turn back. Connections are kept alive and reused through the multi handle's
/// connection cache. Each `get` suspends on a continuation that the loop thread resumes. This is the only file
/// that imports CCurl.
public final class CurlTransport: HTTPTransport {
    /// The version of the libcurl the program runs with and its TLS library (`7.88.1 (OpenSSL/3.0.15)`), for
    /// `glossary --version`.
    public static var curlVersion: String {
        let curl: Curl
        switch Curl.loaded {
        case .success(let loaded): curl = loaded
        case .failure(let failure): return "not loaded (\(failure.detail))"
        }
        guard let info = curl.versionInfo(glossary_curl_version_now())?.pointee else { return "unknown" }
        let version = info.version.map { String(cString: $0) } ?? "unknown"
        return info.ssl_version.map { "\(version) (\(String(cString: $0)))" } ?? version
    }

    public struct Options: Sendable {
        public var maxConcurrent: Int
        public var connectTimeout: Double
        public var totalTimeout: Double
        public var userAgent: String
        /// Bodies larger than this abort the transfer (`TransportFailure.Kind.bodyTooLarge`).
        public var maxBodyBytes: Int
        /// Asked before every transfer starts; nil sends as fast as the window allows.
        public var pacer: RequestPacer?

        public init(
            maxConcurrent: Int, connectTimeout: Double, totalTimeout: Double, userAgent: String, maxBodyBytes: Int,
            pacer: RequestPacer? = nil
        ) {
            self.maxConcurrent = maxConcurrent
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.userAgent = userAgent
            self.maxBodyBytes = maxBodyBytes
            self.pacer = pacer
        }
    }

    /// The loop, or why libcurl can't be used: then no request is sent. With a pacer, the pacer is stopped with that
    /// reason, so the client reports it once rather than once a word (and retries nothing); without one, every
    /// request fails with it.
    private let loop: Result<Loop, TransportFailure>
    private let pacer: RequestPacer?

    /// Starts the transport's thread; it stops when the transport is released and its transfers are done.
    public init(options: Options) {
        loop = Curl.loaded.map { Loop(curl: $0, options: options) }
        pacer = options.pacer
        guard case .success(let loop) = loop else { return }
        let thread = Thread { [loop] in loop.run() }
        thread.name = "glossary-curl"
        thread.start()
    }

    deinit {
        if case .success(let loop) = loop { loop.close() }
    }

    /// Cancelling the task abandons the transfer (queued or under way) at once: `.cancelled`.
    public func get(_ url: String) async -> Result<TransportResponse, TransportFailure> {
        let loop: Loop
        switch self.loop {
        case .success(let running): loop = running
        case .failure(let unavailable):
            guard let pacer else { return .failure(unavailable) }
            pacer.stop(.clientUnavailable(detail: unavailable.detail))
            return .failure(TransportFailure(.notSent, detail: unavailable.detail))
        }
        let cancelled = BuildCancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                loop.submit(Transfer(url: url, maxBodyBytes: loop.options.maxBodyBytes, cancelled: cancelled, continuation: continuation))
            }
        } onCancel: { [loop] in
            cancelled.cancel()
            loop.wakeUp()
        }
    }
}

/// One request on its way through the loop; its body grows in the write callback.
///
/// Only the loop thread touches it after `submit` hands it over, hence `@unchecked`.
private final class Transfer: @unchecked Sendable {
    let url: String
    let maxBodyBytes: Int
    let continuation: CheckedContinuation<Result<TransportResponse, TransportFailure>, Never>
    /// Set by the caller's task being cancelled, from any thread.
    let cancelled: BuildCancellation
    var body = Data()
    var exceededLimit = false
    /// When the pacer granted its send, to give the turn back if it never reached a server.
    var reservedAt: ContinuousClock.Instant?

    init(
        url: String, maxBodyBytes: Int, cancelled: BuildCancellation, continuation: CheckedContinuation<Result<TransportResponse, TransportFailure>, Never>
    ) {
        self.url = url
        self.maxBodyBytes = maxBodyBytes
        self.cancelled = cancelled
        self.continuation = continuation
    }

    var isCancelled: Bool { cancelled.isCancelled }

    func answerCancelled() {
        continuation.resume(returning: .failure(TransportFailure(.cancelled, detail: "the build stopped")))
    }

    func answerNotSent() {
        continuation.resume(returning: .failure(TransportFailure(.notSent, detail: "not sent: the client stopped asking")))
    }
}

/// The multi handle and the thread-side state; shared between callers (`submit`, `close`) and the thread.
private final class Loop: Sendable {
    let options: CurlTransport.Options
    private let curl: Curl
    /// curl_multi_wakeup is safe from any thread; every other use of the handle is on the loop thread.
    nonisolated(unsafe) private let multi: UnsafeMutableRawPointer
    private let queue = Mutex(Queue())

    private struct Queue {
        /// Waiting transfers are `pending[head...]`: taking one is O(1) however long the queue.
        var pending: [Transfer] = []
        var head = 0
        var closing = false

        var waiting: Int { pending.count - head }

        mutating func take() -> Transfer? {
            guard head < pending.count else { return nil }
            defer {
                head += 1
                if head == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    head = 0
                }
            }
            return pending[head]
        }

        /// Puts back a transfer the pacer would not let start yet, first in line.
        mutating func putBack(_ transfer: Transfer) {
            if head > 0 {
                head -= 1
                pending[head] = transfer
            } else {
                pending.insert(transfer, at: 0)
            }
        }
    }

    init(curl: Curl, options: CurlTransport.Options) {
        self.curl = curl
        self.options = options
        guard let multi = curl.multiInit() else { fatalError("curl_multi_init failed: out of memory") }
        self.multi = multi
        // Keep an idle connection per concurrent transfer, so every next request reuses one.
        glossary_multi_setopt_long(curl.multiSetopt, multi, CURLMOPT_MAXCONNECTS, max(options.maxConcurrent, 1) + 4)
    }

    func submit(_ transfer: Transfer) {
        queue.withLock { $0.pending.append(transfer) }
        _ = curl.multiWakeup(multi)
    }

    func close() {
        queue.withLock { $0.closing = true }
        _ = curl.multiWakeup(multi)
    }

    func wakeUp() { _ = curl.multiWakeup(multi) }

    /// The thread's body: start queued transfers while there is room (and the pacer agrees), drive curl, answer
    /// completed transfers, and sleep in `curl_multi_poll` until there is news or a wakeup.
    func run() {
        var inFlight: [UnsafeMutableRawPointer: Transfer] = [:]
        let headers = curl.slistAppend(nil, "Accept: application/json")
        defer {
            curl.slistFreeAll(headers)
            _ = curl.multiCleanup(multi)
        }
        let limit = max(options.maxConcurrent, 1)
        while true {
            var nextTurn: ContinuousClock.Instant?
            // Transfers whose callers stopped waiting are dropped, wherever they are; once the client has stopped
            // asking, so is every transfer still under way: none of them is waited on for its timeout.
            let stopped = options.pacer?.stopReason != nil
            for (easy, transfer) in inFlight where stopped || transfer.isCancelled {
                _ = curl.multiRemoveHandle(multi, easy)
                curl.easyCleanup(easy)
                inFlight[easy] = nil
                if transfer.isCancelled { transfer.answerCancelled() } else { transfer.answerNotSent() }
            }
            while inFlight.count < limit, let transfer = queue.withLock({ $0.take() }) {
                if transfer.isCancelled {
                    transfer.answerCancelled()
                    continue
                }
                if let pacer = options.pacer {
                    if pacer.stopReason != nil {
                        transfer.answerNotSent()
                        continue
                    }
                    let now = ContinuousClock.now
                    if let next = pacer.reserve(now: now) {
                        queue.withLock { $0.putBack(transfer) }
                        nextTurn = next
                        break
                    }
                    transfer.reservedAt = now
                }
                if let easy = start(transfer, headers: headers) { inFlight[easy] = transfer }
            }
            let (closing, waiting) = queue.withLock { ($0.closing, $0.waiting) }
            if closing && inFlight.isEmpty && waiting == 0 { return }

            var running: Int32 = 0
            _ = curl.multiPerform(multi, &running)
            // A finished transfer frees a slot: fill it at once rather than after the next poll. One that stopped
            // the client is acted on at once too.
            if finishCompleted(&inFlight) > 0 && (waiting > 0 && nextTurn == nil || options.pacer?.stopReason != nil) { continue }
            var timeout: Int32 = 1000
            if let nextTurn {
                let wait = nextTurn - .now
                let milliseconds = wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000 + 1
                timeout = Int32(clamping: max(0, min(1000, milliseconds)))
            }
            var ready: Int32 = 0
            _ = curl.multiPoll(multi, nil, 0, timeout, &ready)
        }
    }

    /// Sets up and adds an easy handle; a transfer that can't be started is answered straight away.
    private func start(_ transfer: Transfer, headers: UnsafeMutablePointer<curl_slist>?) -> UnsafeMutableRawPointer? {
        guard let easy = curl.easyInit() else {
            transfer.continuation.resume(returning: .failure(TransportFailure(.network, detail: "can't create a transfer (out of memory)")))
            return nil
        }
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        glossary_easy_setopt_string(curl.easySetopt, easy, CURLOPT_URL, transfer.url)
        glossary_easy_setopt_long(curl.easySetopt, easy, CURLOPT_NOSIGNAL, 1)
        glossary_easy_setopt_string(curl.easySetopt, easy, CURLOPT_USERAGENT, options.userAgent)
        // "" offers every encoding this libcurl can decode (gzip, deflate, br…).
        glossary_easy_setopt_string(curl.easySetopt, easy, CURLOPT_ACCEPT_ENCODING, "")
        glossary_easy_setopt_slist(curl.easySetopt, easy, CURLOPT_HTTPHEADER, headers)
        glossary_easy_setopt_long(curl.easySetopt, easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(options.connectTimeout))
        glossary_easy_setopt_long(curl.easySetopt, easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(options.totalTimeout))
        glossary_easy_setopt_long(curl.easySetopt, easy, CURLOPT_FOLLOWLOCATION, 1)
        glossary_easy_setopt_long(curl.easySetopt, easy, CURLOPT_MAXREDIRS, 5)
        // The template comes from a config file: never let it read file:// or speak other protocols.
        glossary_easy_setopt_string(curl.easySetopt, easy, CURLOPT_PROTOCOLS_STR, "http,https")
        glossary_easy_setopt_string(curl.easySetopt, easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // A declared Content-Length over the cap fails before any body arrives; the callback catches the rest.
        glossary_easy_setopt_off_t(curl.easySetopt, easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(transfer.maxBodyBytes))
        glossary_easy_setopt_pointer(curl.easySetopt, easy, CURLOPT_WRITEDATA, context)
        glossary_easy_setopt_write_function(curl.easySetopt, easy) { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            guard transfer.body.count + length <= transfer.maxBodyBytes else {
                transfer.exceededLimit = true
                return 0  // anything but `length` aborts the transfer with CURLE_WRITE_ERROR
            }
            transfer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
            return length
        }
        let added = curl.multiAddHandle(multi, easy)
        guard added == CURLM_OK else {
            curl.easyCleanup(easy)
            let detail = curl.multiStrerror(added).map { String(cString: $0) } ?? "curl_multi_add_handle failed (\(added.rawValue))"
            transfer.continuation.resume(returning: .failure(TransportFailure(.network, detail: detail)))
            return nil
        }
        return easy
    }

    /// Answers every transfer curl reports done; returns how many finished.
    private func finishCompleted(_ inFlight: inout [UnsafeMutableRawPointer: Transfer]) -> Int {
        var finished = 0
        var remaining: Int32 = 0
        while let message = curl.multiInfoRead(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            // Copy what we need out of `message` first: removing the handle invalidates it.
            let code = message.pointee.data.result
            var status = 0
            glossary_easy_getinfo_long(curl.easyGetinfo, easy, CURLINFO_RESPONSE_CODE, &status)
            var retryAfter: curl_off_t = 0
            glossary_easy_getinfo_off_t(curl.easyGetinfo, easy, CURLINFO_RETRY_AFTER, &retryAfter)
            // CURLINFO_RETRY_AFTER reads both forms (seconds, HTTP date) but says 0 for "absent" and for "0".
            var header: UnsafeMutablePointer<curl_header>?
            let saysRetryAfter = curl.easyHeader(easy, "Retry-After", 0, UInt32(CURLH_HEADER), -1, &header) == CURLHE_OK
            var redirects = 0
            glossary_easy_getinfo_long(curl.easyGetinfo, easy, CURLINFO_REDIRECT_COUNT, &redirects)
            var effectiveURL: UnsafeMutablePointer<CChar>?
            glossary_easy_getinfo_string(curl.easyGetinfo, easy, CURLINFO_EFFECTIVE_URL, &effectiveURL)
            let redirectedTo = redirects > 0 ? effectiveURL.map { String(cString: $0) } : nil
            var connectTime: curl_off_t = 0
            glossary_easy_getinfo_off_t(curl.easyGetinfo, easy, CURLINFO_CONNECT_TIME_T, &connectTime)
            _ = curl.multiRemoveHandle(multi, easy)
            curl.easyCleanup(easy)
            guard let transfer = inFlight.removeValue(forKey: easy) else { continue }
            finished += 1
            let result: Result<TransportResponse, TransportFailure>
            if code == CURLE_OK {
                let response = TransportResponse(status: status, body: transfer.body, retryAfter: saysRetryAfter ? Double(retryAfter) : nil)
                // Pause here, on the loop thread, so not one more request leaves before the pause is in force. A 503's
                // Retry-After says the service is down for that long: for every word, not just this one.
                if status == 429 || (status == 503 && response.retryAfter != nil) { options.pacer?.rateLimited(retryAfter: response.retryAfter) }
                result = .success(response)
            } else {
                var failure = self.failure(code, exceededLimit: transfer.exceededLimit, connected: connectTime > 0)
                failure.redirectedTo = redirectedTo
                // Nothing reached a server at the URL asked: the turn is given back.
                if failure.neverConnected && redirectedTo == nil, let reservedAt = transfer.reservedAt { options.pacer?.refund(reservedAt) }
                result = .failure(failure)
            }
            // Counted here, before another transfer starts: a dead API stops the queue at once.
            options.pacer?.record(result)
            transfer.continuation.resume(returning: result)
        }
        return finished
    }

    private func failure(_ code: CURLcode, exceededLimit: Bool, connected: Bool) -> TransportFailure {
        let detail = curl.easyStrerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return TransportFailure(connected ? .timedOut : .connectTimedOut, detail: detail)
        case CURLE_COULDNT_CONNECT: return TransportFailure(.cannotConnect, detail: detail)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return TransportFailure(.cannotResolve, detail: detail)
        case CURLE_FILESIZE_EXCEEDED: return TransportFailure(.bodyTooLarge, detail: detail)
        case CURLE_WRITE_ERROR where exceededLimit: return TransportFailure(.bodyTooLarge, detail: detail)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: return TransportFailure(.badURL, detail: detail)
        default: return TransportFailure(.network, detail: detail)
        }
    }

    /// At least a millisecond (0 means "no timeout" to libcurl) and at most a day, whatever the configuration
    /// says: the conversion can't trap.
    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 86_400_000 }
        return Int((min(max(seconds, 0.001), 86_400) * 1000).rounded())
    }
}
