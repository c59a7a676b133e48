import CLibGit2
import Foundation

extension Repository {
    /// Stores `blobs` in the object database as one pack, written through libgit2's indexer
    /// (`git_odb_write_pack`: a `.pack` and its `.idx` under `objects/pack/`), instead of one
    /// loose file per blob. For thousands of objects this is far faster: creating thousands of
    /// small files dominates `git_blob_create_from_buffer`. Objects are stored without
    /// compression (zlib stored blocks), as git may store any object. Returns the ids in order.
    /// Equal blobs are stored once (the indexer refuses a pack holding one object twice);
    /// objects already in the database are stored again (harmless: git reads either copy).
    public func writeBlobsAsPack(_ blobs: [Data]) throws -> [OID] {
        guard !blobs.isEmpty else { return [] }
        let ids = try blobs.map { try OID.blob(for: $0) }
        var seen = Set<OID>()
        let unique = zip(ids, blobs).filter { seen.insert($0.0).inserted }.map(\.1)
        try withPackWriter { append in
            var hasher = SHA1Hasher()
            var chunk: [UInt8] = []
            chunk.reserveCapacity(1 << 20)
            func flush() throws {
                guard !chunk.isEmpty else { return }
                hasher.update(chunk)
                try append(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
            chunk += Array("PACK".utf8) + PackEncoding.bigEndian(2) + PackEncoding.bigEndian(UInt32(unique.count))
            for blob in unique {
                PackEncoding.appendBlob(blob, to: &chunk)
                if chunk.count >= 1 << 20 { try flush() }
            }
            try flush()
            try append(Array(hasher.finalize()))
        }
        return ids
    }
}

/// The pack file format (git's `Documentation/gitformat-pack.txt`), for undeltified blobs.
enum PackEncoding {
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
         UInt8(truncatingIfNeeded: value)]
    }

    /// One blob entry: the type-and-size header, then the bytes as a zlib stream of stored blocks.
    static func appendBlob(_ blob: Data, to output: inout [UInt8]) {
        var size = UInt64(blob.count)
        var byte = UInt8(3 << 4) | UInt8(size & 0x0F)  // type 3: blob
        size >>= 4
        while size > 0 {
            output.append(byte | 0x80)
            byte = UInt8(size & 0x7F)
            size >>= 7
        }
        output.append(byte)
        output += [0x78, 0x01]  // zlib header: deflate, 32 KiB window, no preset dictionary
        var adlerA: UInt32 = 1, adlerB: UInt32 = 0
        blob.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var offset = 0
            repeat {
                let length = min(65_535, bytes.count - offset)
                let final = offset + length == bytes.count
                output.append(final ? 1 : 0)
                output += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
                let block = UnsafeBufferPointer(rebasing: bytes[offset..<offset + length])
                output.append(contentsOf: block)
                // Adler-32, reduced often enough that the sums cannot overflow.
                var index = 0
                while index < block.count {
                    let end = min(index + 5_552, block.count)
                    while index < end {
                        adlerA &+= UInt32(block[index])
                        adlerB &+= adlerA
                        index += 1
                    }
                    adlerA %= 65_521
                    adlerB %= 65_521
                }
                offset += length
            } while offset < bytes.count
        }
        output += bigEndian(adlerB << 16 | adlerA)
    }
}
