import Foundation
import QuireCore

/// What this device last verified of an encrypted remote (`state.json` in the carrier's
/// directory, never synced): the carrier commit, the newest manifest's counter and hash (a
/// lower or forked one is a rollback), and the packs already verified and indexed, each with
/// the id of the blob that held it (the same blob id is the same bytes).
struct CarrierState: Codable, Equatable {
    /// The carrier commit last verified (hex); nil before the first fetch.
    var verifiedTip: String?
    /// The newest manifest counter seen (0: none).
    var counter = 0
    /// The content hash of that manifest.
    var manifestHash: String?
    /// Pack name → blob id (hex) of each pack verified and indexed.
    var packs: [String: String] = [:]

    /// The state in `directory`, empty when there is none yet.
    static func load(in directory: URL) throws -> CarrierState {
        let path = directory.appendingPathComponent("state.json").path
        guard let data = FileManager.default.contents(atPath: path) else { return CarrierState() }
        do {
            return try JSONDecoder().decode(CarrierState.self, from: data)
        } catch {
            throw CarrierError.file(path: path, reason: "unreadable: \(error.localizedDescription)")
        }
    }

    /// Writes it atomically into `directory`.
    func save(in directory: URL) throws {
        let path = directory.appendingPathComponent("state.json").path
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try AtomicFile.write(try encoder.encode(self), to: URL(fileURLWithPath: path), displayPath: path)
        } catch let error as CarrierError {
            throw error
        } catch {
            throw CarrierError.file(path: path, reason: error.localizedDescription)
        }
    }
}
