import Foundation
import QuireCore
import QuireKit

/// What every `quire key` command needs: the vault, its key workflows against the encrypted
/// remote (`KeyManagement`), the passphrase reader and the device's name.
private struct KeyCommandSetting {
    let management: KeyManagement
    let passphrases: PassphraseReader
    let device: String
    let now: Date

    init(_ context: CommandContext) throws {
        let vault = try context.vault()
        management = try KeyManagement.forVault(vault, environment: context.environment)
        passphrases = PassphraseReader(environment: context.environment, output: context.output)
        device = vault.deviceName(environment: context.environment)
        now = try context.now()
    }
}

/// `quire key status` — the encrypted remote's devices, key generation and key age.
struct KeyStatusCommand: Command {
    static let configuration = CommandConfiguration(
        name: "key status",
        abstract: "Show the encrypted remote's devices, key generation and key age.",
        usage: "key status [--json]",
        discussion: """
        Reads the keyring the remote holds (fetched and checked against what this device has
        seen) and lists the devices that hold the key, this one marked. The names are sealed
        under the vault key: the host sees only how many there are. A device without a key of its
        own asks for the passphrase (QUIRE_PASSPHRASE in scripts). See Docs/sync.md, "Encrypted
        remotes: keys and recovery".
        """,
        examples: ["quire key status", "quire key status --json"],
        options: [.flag("--json", help: "Print the status as JSON.")])

    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws {
        let setting = try KeyCommandSetting(context)
        let status = try setting.management.status(passphrase: { try setting.passphrases.existing() },
                                                   deviceName: setting.device, now: setting.now)
        let days = max(0, Int(status.keyAge / 86_400))
        if json {
            context.output.line(JSON.object([
                ("generation", .int(status.generation)), ("revision", .int(status.revision)),
                ("keyCreatedAt", .string(status.keyCreatedAt)), ("keyAgeDays", .int(days)),
                ("devices", .array(status.devices.map {
                    .object([("name", .string($0.name)), ("addedAt", .string($0.addedAt)), ("thisDevice", .bool($0.isThisDevice))])
                })),
            ]).rendered(.output))
            return
        }
        let age = days == 0 ? "today" : days == 1 ? "1 day ago" : "\(days) days ago"
        context.output.line("key generation \(status.generation), made \(status.keyCreatedAt) (\(age)); keyring revision \(status.revision)")
        context.output.line("\(status.devices.count == 1 ? "1 device holds" : "\(status.devices.count) devices hold") the key:")
        let width = status.devices.map(\.name.count).max() ?? 0
        for device in status.devices {
            let padded = device.name + String(repeating: " ", count: width - device.name.count)
            context.output.line("  \(padded)  added \(device.addedAt)\(device.isThisDevice ? "  (this device)" : "")")
        }
    }
}

/// `quire key passphrase` — a new passphrase for the same vault key.
struct KeyPassphraseCommand: Command {
    static let configuration = CommandConfiguration(
        name: "key passphrase",
        abstract: "Change the encrypted remote's passphrase (the key stays: no note is uploaded again).",
        usage: "key passphrase [--lost]",
        discussion: """
        Asks the current passphrase, then the new one twice, on the terminal; in scripts they come
        from QUIRE_PASSPHRASE and QUIRE_NEW_PASSPHRASE (never from the command line). A wrong
        current passphrase changes nothing (exit 4). --lost: the current passphrase is lost; this
        device's own key vouches instead (the way back when a device still syncs). With no
        device left and no passphrase, nothing can be recovered.
        """,
        examples: ["quire key passphrase", "quire key passphrase --lost"],
        options: [.flag("--lost", help: "The current passphrase is lost: use this device's key instead.")])

    let lost: Bool

    init(_ arguments: ParsedArguments) throws {
        lost = arguments.has("--lost")
    }

    func run(_ context: CommandContext) throws {
        let setting = try KeyCommandSetting(context)
        let old = lost ? nil : try setting.passphrases.existing(prompt: "current passphrase: ")
        let new = try setting.passphrases.fresh(variable: PassphraseReader.new)
        let change = try setting.management.changePassphrase(old: old, new: new)
        context.output.line("passphrase changed (keyring revision \(change.revision)); the key and every pack stay as they were")
    }
}

/// `quire key revoke DEVICE` — a new key for every device but DEVICE.
struct KeyRevokeCommand: Command {
    static let configuration = CommandConfiguration(
        name: "key revoke",
        abstract: "Revoke a device: a new key for every other device, so it reads nothing synced from now on.",
        usage: "key revoke DEVICE [--new-passphrase]",
        discussion: """
        DEVICE is a name 'quire key status' lists. The remote's manifest is sealed under a new
        key from now on; DEVICE keeps what it synced before. Asks the passphrase (QUIRE_PASSPHRASE
        in scripts); whoever knows it can join again, so --new-passphrase also sets a new one
        (QUIRE_NEW_PASSPHRASE in scripts) when DEVICE's owner knew it.
        """,
        examples: ["quire key revoke old-laptop", "quire key revoke bob-laptop --new-passphrase"],
        options: [.flag("--new-passphrase", help: "Also set a new passphrase.")],
        positionals: 1...1)

    let device: String
    let newPassphrase: Bool

    init(_ arguments: ParsedArguments) throws {
        device = arguments.positionals[0]
        newPassphrase = arguments.has("--new-passphrase")
    }

    func run(_ context: CommandContext) throws {
        try KeyRotateCommand.rotate(revoking: device, newPassphrase: newPassphrase, context: context)
    }
}

/// `quire key rotate` — a new key for every device.
struct KeyRotateCommand: Command {
    static let configuration = CommandConfiguration(
        name: "key rotate",
        abstract: "Seal the encrypted remote under a new key from now on (every device keeps access).",
        usage: "key rotate [--new-passphrase]",
        discussion: """
        Asks the passphrase (QUIRE_PASSPHRASE in scripts); --new-passphrase also sets a new one
        (QUIRE_NEW_PASSPHRASE in scripts). Every device holding the key gets the new one at its
        next sync; packs already on the remote stay as they are.
        """,
        examples: ["quire key rotate"],
        options: [.flag("--new-passphrase", help: "Also set a new passphrase.")])

    let newPassphrase: Bool

    init(_ arguments: ParsedArguments) throws {
        newPassphrase = arguments.has("--new-passphrase")
    }

    func run(_ context: CommandContext) throws {
        try Self.rotate(revoking: nil, newPassphrase: newPassphrase, context: context)
    }

    /// Rotates the key, revoking `device` when given, and says what happened.
    static func rotate(revoking device: String?, newPassphrase: Bool, context: CommandContext) throws {
        let setting = try KeyCommandSetting(context)
        let passphrase = try setting.passphrases.existing()
        let new = newPassphrase ? try setting.passphrases.fresh(variable: PassphraseReader.new) : nil
        let change = try setting.management.rotate(revoking: device, passphrase: passphrase, newPassphrase: new, now: setting.now)
        let holders = change.deviceCount == 1 ? "1 device" : "\(change.deviceCount) devices"
        let what = device.map { "revoked \($0): " } ?? ""
        context.output.line("\(what)key generation \(change.generation) for \(holders)\(new == nil ? "" : ", with a new passphrase")")
    }
}
