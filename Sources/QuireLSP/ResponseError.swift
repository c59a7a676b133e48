import QuireCore

/// A JSON-RPC error answer: a code from the JSON-RPC 2.0 and LSP 3.17 specifications and a
/// readable, lowercase message.
public struct ResponseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error code.
    public var code: Int
    /// What went wrong.
    public var message: String

    /// Creates an error answer.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// The body was not JSON (JSON-RPC -32700).
    static func parseError(_ message: String) -> ResponseError { ResponseError(code: -32700, message: message) }
    /// The message is not a valid request object (-32600).
    static func invalidRequest(_ message: String) -> ResponseError { ResponseError(code: -32600, message: message) }
    /// The method is not known (-32601).
    static func methodNotFound(_ method: String) -> ResponseError {
        ResponseError(code: -32601, message: "unknown method '\(method)'")
    }
    /// The parameters are missing or of the wrong shape (-32602).
    static func invalidParams(_ message: String) -> ResponseError { ResponseError(code: -32602, message: message) }
    /// The server failed while answering (-32603).
    static func internalError(_ message: String) -> ResponseError { ResponseError(code: -32603, message: message) }
    /// A request before `initialize` (-32002).
    static let notInitialized = ResponseError(code: -32002, message: "the server is not initialized yet")
    /// The client cancelled the request (-32800).
    static let cancelled = ResponseError(code: -32800, message: "the request was cancelled")
    /// The request failed for a reason the user should see (-32803, LSP's RequestFailed).
    static func requestFailed(_ message: String) -> ResponseError { ResponseError(code: -32803, message: message) }
    /// The document changed while the answer was computed (-32801).
    static let contentModified = ResponseError(code: -32801, message: "the document changed meanwhile")

    var json: JSON { .object([("code", .int(code)), ("message", .string(message))]) }
}
