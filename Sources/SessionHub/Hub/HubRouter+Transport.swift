extension HubRouter {
    /// Counts the transport's own error answers (413 before the body is read, refused upgrades) in
    /// `pongd_errors_total{code}`, as every other error sent.
    package func transportAnswered(_ response: HTTPResponse) {
        if let code = response.errorCode { hub.metrics.error(code) }
    }
}
