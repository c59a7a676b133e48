import CLibGit2
import Foundation

/// The Swift state behind libgit2's remote callbacks. Passed as the `payload` (unretained:
/// the box outlives the libgit2 call that uses it); errors raised inside a callback are kept
/// here, the callback returns `GIT_EUSER`, and the caller rethrows them.
final class RemoteCallbackBox {
    let options: TransferOptions
    let url: String
    var error: GitError?
    var rejections: [RefRejection] = []
    /// The lines the server sent on the sideband (git's `remote:` lines), the last 20.
    private(set) var serverLines: [String] = []
    private var partialLine = ""
    var sshMethods: [Credentials.Method]?
    var passwordMethods: [Credentials.Method]?
    var offeredUsername = false
    /// What the credentials callback handed to libgit2, described for messages.
    var offered: [String] = []
    let deadline: NetworkDeadline?

    init(options: TransferOptions, url: String) {
        self.options = options
        self.url = url
        deadline = options.timeout.map { NetworkDeadline(seconds: $0) }
    }

    /// Fills `callbacks` with the C functions below and this box as payload.
    func install(into callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        callbacks.credentials = { out, url, username, allowed, payload in
            guard let payload, let out else { return -1 }
            let box = Unmanaged<RemoteCallbackBox>.fromOpaque(payload).takeUnretainedValue()
            return box.credential(out, url.map { String(cString: $0) } ?? box.url,
                                  username.map { String(cString: $0) }, allowed)
        }
        callbacks.certificate_check = { cert, valid, host, payload in
            guard let payload, let cert else { return -1 }
            let box = Unmanaged<RemoteCallbackBox>.fromOpaque(payload).takeUnretainedValue()
            return box.certificate(cert, valid != 0, host.map { String(cString: $0) } ?? "")
        }
        callbacks.transfer_progress = { stats, payload in
            guard let payload, let stats else { return 0 }
            let box = Unmanaged<RemoteCallbackBox>.fromOpaque(payload).takeUnretainedValue()
            if box.deadline?.hasExpired == true || box.options.shouldStop?() == true { return GIT_EUSER.rawValue }
            box.deadline?.touch()
            let counts = stats.pointee
            let resolving = counts.received_objects == counts.total_objects && counts.total_deltas > 0
            box.options.progress?(TransferProgress(phase: resolving ? .resolving : .receiving,
                                                   totalObjects: Int(resolving ? counts.total_deltas : counts.total_objects),
                                                   receivedObjects: Int(resolving ? counts.indexed_deltas : counts.received_objects),
                                                   indexedObjects: Int(counts.indexed_objects),
                                                   bytes: Int(counts.received_bytes)))
            return 0
        }
        callbacks.push_transfer_progress = { current, total, bytes, payload in
            guard let payload else { return 0 }
            let box = Unmanaged<RemoteCallbackBox>.fromOpaque(payload).takeUnretainedValue()
            if box.deadline?.hasExpired == true || box.options.shouldStop?() == true { return GIT_EUSER.rawValue }
            box.deadline?.touch()
            box.options.progress?(TransferProgress(phase: .sending, totalObjects: Int(total), receivedObjects: Int(current),
                                                   indexedObjects: Int(current), bytes: Int(bytes)))
            return 0
        }
        callbacks.pack_progress = { stage, current, total, payload in
            guard let payload else { return 0 }
            let box = Unmanaged<RemoteCallbackBox>.fromOpaque(payload).takeUnretainedValue()
            if box.deadline?.hasExpired == true || box.options.shouldStop?() == true { return GIT_EUSER.rawValue }
            box.deadline?.touch()
            // Adding objects (a first push walks every tree) reports the count so far, no total.
            let counting = stage == Int32(GIT_PACKBUILDER_ADDING_OBJECTS.rawValue)
            box.options.progress?(TransferProgress(phase: counting ? .counting : .packing, totalObjects: counting ? 0 : Int(total),
                                                   receivedObjects: Int(current), indexedObjects: Int(current), bytes: 0))
            return 0
        }
        callbacks.sideband_progress = { text, length, payload in
            guard let payload else { return 0 }
            let box = Unmanaged<RemoteCallbackBox>.fromOpaque(payload).takeUnretainedValue()
            if box.options.shouldStop?() == true { return GIT_EUSER.rawValue }
            box.deadline?.touch()
            if let text, length > 0 {
                box.addServerText(String(decoding: UnsafeRawBufferPointer(start: text, count: Int(length)), as: UTF8.self))
            }
            return 0
        }
        callbacks.push_update_reference = { refname, status, payload in
            guard let payload else { return 0 }
            let box = Unmanaged<RemoteCallbackBox>.fromOpaque(payload).takeUnretainedValue()
            if let status {
                box.rejections.append(RefRejection(reference: refname.map { String(cString: $0) } ?? "?",
                                                   status: String(cString: status)))
            }
            return 0
        }
    }

    /// Keeps the complete lines of the server's sideband text; a line redrawn with `\r`
    /// (a progress counter) counts once, as its last state.
    private func addServerText(_ text: String) {
        partialLine += text
        while let end = partialLine.firstIndex(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            let line = partialLine[..<end].trimmingCharacters(in: .whitespaces)
            let redrawn = partialLine[end] == "\r"
            partialLine = String(partialLine[partialLine.index(after: end)...])
            if redrawn || line.isEmpty { continue }
            serverLines.append(line)
            if serverLines.count > 20 { serverLines.removeFirst() }
        }
    }

    /// Converts the result of the libgit2 call into the error to throw, if any.
    func finish(_ result: Int32, _ function: String) throws {
        if deadline?.hasExpired == true {
            throw GitError(function: function, code: .timedOut,
                           message: "no progress from \(Credentials.redact(url)) for \(Int(options.timeout ?? 0)) s")
        }
        if result < 0 {
            let fromLibgit2 = GitError(function: function, rawCode: result)
            if let error { throw error }
            throw fromLibgit2
        }
    }

    private func credential(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, _ url: String,
                            _ username: String?, _ allowed: UInt32) -> Int32 {
        let user = username ?? URLComponents(string: url)?.user ?? "git"
        if allowed & GIT_CREDENTIAL_USERNAME.rawValue != 0 && !offeredUsername {
            offeredUsername = true
            return git_credential_username_new(out, user)
        }
        if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0 {
            if sshMethods == nil { sshMethods = options.credentials.sshMethods() }
            while let method = sshMethods?.first {
                sshMethods?.removeFirst()
                switch method {
                case .sshAgent:
                    offered.append(method.offered(home: options.credentials.homeDirectory))
                    return git_credential_ssh_key_from_agent(out, user)
                case .sshKey(let privateKey, let publicKey):
                    offered.append(method.offered(home: options.credentials.homeDirectory))
                    return git_credential_ssh_key_new(out, user, publicKey, privateKey, nil)
                case .userPassword: continue
                }
            }
        }
        if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0 {
            if passwordMethods == nil {
                passwordMethods = options.credentials.passwordMethods(url: url, userFromURL: username)
            }
            if let method = passwordMethods?.first {
                passwordMethods?.removeFirst()
                if case .userPassword(let name, let password, _, _) = method {
                    offered.append(method.offered(home: options.credentials.homeDirectory, urlUser: username))
                    return git_credential_userpass_plaintext_new(out, name, password)
                }
            }
        }
        let ssh = allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0
        if offered.isEmpty, !ssh, let parts = URLComponents(string: url), parts.password != nil {
            // libgit2 offers a password written in the URL itself before it asks: asked, the
            // server has refused it.
            error = GitError(function: "credentials", code: .auth, errorClass: "http",
                             message: "the server refused the password in the URL for \(parts.user ?? "its user") (\(Credentials.redact(url)))",
                             reason: .credentialsRefused)
        } else if offered.isEmpty {
            let looked = ssh ? "no ssh-agent (SSH_AUTH_SOCK), no key at ~/.ssh/id_ed25519 or ~/.ssh/id_rsa"
                + (options.credentials.sshKeyPath.map { " or \($0) (sshKey)" } ?? "")
                : "QUIRE_GIT_TOKEN is not set, ~/.git-credentials has no entry for it and no git credential helper answered"
            error = GitError(function: "credentials", code: .auth, errorClass: ssh ? "ssh" : "http",
                             message: "no credentials for this remote (\(Credentials.redact(url))): \(looked)",
                             reason: .noCredentials)
        } else {
            error = GitError(function: "credentials", code: .auth, errorClass: ssh ? "ssh" : "http",
                             message: "the server refused \(offered.joined(separator: ", then ")) (\(Credentials.redact(url)))",
                             reason: .credentialsRefused)
        }
        return GIT_EUSER.rawValue
    }

    private func certificate(_ cert: UnsafeMutablePointer<git_cert>, _ valid: Bool, _ host: String) -> Int32 {
        guard cert.pointee.cert_type == GIT_CERT_HOSTKEY_LIBSSH2 else {
            if valid { return 0 }
            return tlsCertificate(cert, host)
        }
        let hostKey = UnsafeMutableRawPointer(cert).assumingMemoryBound(to: git_cert_hostkey.self).pointee
        let port = URLComponents(string: url)?.port
        let name = KnownHosts.hostName(host, port: port)
        let keyType = HostKeyDescription.typeName(hostKey.raw_type)
        let fingerprint = HostKeyDescription.fingerprint(hostKey)
        guard hostKey.type.rawValue & GIT_CERT_SSH_RAW.rawValue != 0, let raw = hostKey.hostkey else {
            error = GitError(function: "certificate_check", code: .certificate,
                             message: "cannot check the host key of \(name) (\(fingerprint))")
            return GIT_EUSER.rawValue
        }
        let key = Data(bytes: raw, count: hostKey.hostkey_len)
        let knownHosts = KnownHosts(contentsOf: options.credentials.knownHostsPath)
        switch knownHosts.verdict(name: name, keyType: keyType, key: key) {
        case .trusted:
            return 0
        case .mismatch:
            error = GitError(function: "certificate_check", code: .certificate, errorClass: "ssh",
                             message: "the host key of \(name) does not match \(options.credentials.knownHostsPath.path) "
                                 + "(\(keyType) \(fingerprint)); someone may be intercepting the connection",
                             reason: .changedHostKey)
        case .unknown:
            let scan = port.map { "ssh-keyscan -p \($0) \(host)" } ?? "ssh-keyscan \(host)"
            error = GitError(function: "certificate_check", code: .certificate, errorClass: "ssh",
                             message: "unknown host \(name): key \(keyType) \(fingerprint) is not in "
                                 + "\(options.credentials.knownHostsPath.path); if you trust it, run: "
                                 + "\(scan) >> \(options.credentials.knownHostsPath.path)",
                             reason: .unknownHostKey)
        }
        return GIT_EUSER.rawValue
    }

    /// A TLS certificate libgit2's verification refused: accepted when pinned, else refused
    /// with why and its fingerprint.
    private func tlsCertificate(_ cert: UnsafeMutablePointer<git_cert>, _ host: String) -> Int32 {
        guard cert.pointee.cert_type == GIT_CERT_X509 else {
            error = GitError(function: "certificate_check", code: .certificate, errorClass: "ssl",
                             message: "the TLS certificate of \(host) is not trusted")
            return GIT_EUSER.rawValue
        }
        let x509 = UnsafeMutableRawPointer(cert).assumingMemoryBound(to: git_cert_x509.self).pointee
        guard let bytes = x509.data else { return GIT_EUSER.rawValue }
        let certificate = TLSCertificate(der: Data(bytes: bytes, count: x509.len))
        if options.trust.pinnedCertificates.contains(certificate.fingerprint) { return 0 }
        error = GitError(function: "certificate_check", code: .certificate, errorClass: "ssl",
                         message: "the TLS certificate of \(host) is refused: \(certificate.refusal(host: host)) "
                             + "(fingerprint \(certificate.fingerprint))",
                         reason: .untrustedCertificate(fingerprint: certificate.fingerprint))
        return GIT_EUSER.rawValue
    }
}

/// Names and fingerprints of ssh host keys for messages.
enum HostKeyDescription {
    static func typeName(_ raw: git_cert_ssh_raw_type_t) -> String {
        switch raw {
        case GIT_CERT_SSH_RAW_TYPE_RSA: return "ssh-rsa"
        case GIT_CERT_SSH_RAW_TYPE_DSS: return "ssh-dss"
        case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_256: return "ecdsa-sha2-nistp256"
        case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_384: return "ecdsa-sha2-nistp384"
        case GIT_CERT_SSH_RAW_TYPE_KEY_ECDSA_521: return "ecdsa-sha2-nistp521"
        case GIT_CERT_SSH_RAW_TYPE_KEY_ED25519: return "ssh-ed25519"
        default: return "unknown"
        }
    }

    /// `SHA256:<base64>` as ssh prints it, when libgit2 computed the hash.
    static func fingerprint(_ key: git_cert_hostkey) -> String {
        guard key.type.rawValue & GIT_CERT_SSH_SHA256.rawValue != 0 else { return "SHA256:unavailable" }
        let bytes = withUnsafeBytes(of: key.hash_sha256) { Data($0) }
        let text = bytes.base64EncodedString().replacingOccurrences(of: "=", with: "")
        return "SHA256:" + text
    }
}
