import Foundation

extension JSONEncoder.DateEncodingStrategy {
    /// Instants as `QuireClock.iso8601UTC` writes them (`2026-01-02T02:04:05Z`): the files quire
    /// keeps for itself (sync state, daemon health) spell time as everything else it writes.
    public static var quireUTC: JSONEncoder.DateEncodingStrategy {
        .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(QuireClock.iso8601UTC(date))
        }
    }
}

extension JSONDecoder.DateDecodingStrategy {
    /// Reads what `quireUTC` writes, and any other timestamp shape `QuireClock` reads.
    public static var quireISO8601: JSONDecoder.DateDecodingStrategy {
        .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = QuireClock.parseISO8601(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a timestamp")
            }
            return date
        }
    }
}
