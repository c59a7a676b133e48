import QuireCore

/// Messages to the client: answers and notifications from any thread, requests from the actor.
extension LanguageServer {
    nonisolated func sendError(id: JSON, _ error: ResponseError) {
        writer.send(.object([("jsonrpc", .string("2.0")), ("id", id), ("error", error.json)]))
    }

    nonisolated func sendResult(id: JSON, _ result: JSON) {
        writer.send(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
    }

    /// Sends a notification.
    nonisolated func notify(_ method: String, _ params: JSON) {
        writer.send(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    /// Sends a request to the client; `then` gets its answer (the whole response) on the actor.
    func request(_ method: String, _ params: JSON, then: ((JSON) -> Void)? = nil) {
        let id = "quire-\(nextRequestID)"
        nextRequestID += 1
        if let then { answerHandlers[id] = then }
        writer.send(.object([("jsonrpc", .string("2.0")), ("id", .string(id)),
                             ("method", .string(method)), ("params", params)]))
    }

    /// Shows a message in the editor (`window/showMessage`; 1 error, 2 warning, 3 info).
    nonisolated func showMessage(_ text: String, type: Int = 3) {
        notify("window/showMessage", .object([("type", .int(type)), ("message", .string(text))]))
    }
}
