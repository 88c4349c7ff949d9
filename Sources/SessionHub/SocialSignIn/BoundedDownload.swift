import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOConcurrencyHelpers

/// A GET into memory with Foundation's `URLSession` (libcurl on Linux) that refuses a body over a limit, told by
/// `Content-Length` or counted as it arrives, without reading the rest.
enum BoundedDownload {
    /// The body of a 200 answer to GET `url`, at most `limit` bytes, within `timeout` seconds.
    static func get(_ url: URL, limit: Int, timeout: TimeInterval) async throws(JWKSError) -> [UInt8] {
        let receiver = Receiver(limit: limit)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let result = await withCheckedContinuation { continuation in
            receiver.start(continuation)
            session.dataTask(with: request).resume()
        }
        return try result.get()
    }

    /// Collects one task's body and resumes the waiting caller once, when the task completes.
    private final class Receiver: NSObject, URLSessionDataDelegate, Sendable {
        private struct State {
            var body: [UInt8] = []
            var failure: JWKSError?
            var continuation: CheckedContinuation<Result<[UInt8], JWKSError>, Never>?
        }

        private let limit: Int
        private let state = NIOLockedValueBox(State())

        init(limit: Int) {
            self.limit = limit
        }

        func start(_ continuation: CheckedContinuation<Result<[UInt8], JWKSError>, Never>) {
            state.withLockedValue { $0.continuation = continuation }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            var failure: JWKSError?
            if status != 200 {
                failure = .unreachable("HTTP status \(status)")
            } else if response.expectedContentLength > limit {
                failure = .tooLarge(limit: limit)
            }
            guard let failure else { return completionHandler(.allow) }
            state.withLockedValue { $0.failure = failure }
            completionHandler(.cancel)
        }

        /// Redirects are followed only to where the key set could have been configured: `https`, or `http` on the
        /// loopback address (`JWKSSource`); any other answer stays the final one (and is not a 200).
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            let allowed = request.url.map { (try? JWKSSource(parsing: $0.absoluteString)) == .url($0) } ?? false
            completionHandler(allowed ? request : nil)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let over = state.withLockedValue { state in
                state.body += data
                guard state.body.count > limit else { return false }
                state.failure = state.failure ?? .tooLarge(limit: limit)
                return true
            }
            if over { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let (continuation, result) = state.withLockedValue { state in
                defer { state.continuation = nil }
                let result: Result<[UInt8], JWKSError>
                if let failure = state.failure {
                    result = .failure(failure)
                } else if let error {
                    result = .failure(.unreachable(error.localizedDescription))
                } else {
                    result = .success(state.body)
                }
                return (state.continuation, result)
            }
            continuation?.resume(returning: result)
        }
    }
}

extension JWKSSource {
    /// The key set's bytes: the file read again, or the URL fetched (10 s at most); over `limit` bytes is an error.
    func fetch(limit: Int) async throws(JWKSError) -> [UInt8] {
        switch self {
        case .file(let path):
            guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable("cannot open \(path)") }
            defer { try? handle.close() }
            let data: Data?
            do {
                data = try handle.read(upToCount: limit + 1)
            } catch {
                throw .unreadable("\(error)")
            }
            let bytes = [UInt8](data ?? Data())
            guard bytes.count <= limit else { throw .tooLarge(limit: limit) }
            return bytes
        case .url(let url):
            return try await BoundedDownload.get(url, limit: limit, timeout: 10)
        }
    }
}
