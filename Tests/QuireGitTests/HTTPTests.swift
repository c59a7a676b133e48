import Foundation
import QuireTestSupport
import QuireGit
import Testing

/// `git http-backend` behind nginx (basic auth, user `quire`, password `secret`) and fcgiwrap,
/// all on loopback; repositories live under `srv/`.
final class HTTPGitServer {
    let nginx: LoopbackServer
    let fcgiwrap: pid_t
    var port: Int { nginx.port }

    init(directory: URL) throws {
        let socket = directory.appendingPathComponent("fcgi.sock").path
        fcgiwrap = try Fixture.spawn("/usr/sbin/fcgiwrap", ["-s", "unix:" + socket])
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        try Data("quire:{PLAIN}secret\n".utf8).write(to: directory.appendingPathComponent("htpasswd"))
        for name in ["body", "fcgi", "proxy", "uwsgi", "scgi"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let configURL = directory.appendingPathComponent("nginx.conf")
        let path = directory.path
        nginx = try LoopbackServer(executable: "/usr/sbin/nginx", arguments: { port in
            let config = """
                daemon off; master_process off; user root; worker_processes 1;
                pid \(path)/nginx.pid; error_log \(path)/error.log;
                events { worker_connections 64; }
                http {
                  access_log off; client_max_body_size 0;
                  client_body_temp_path \(path)/body; fastcgi_temp_path \(path)/fcgi; proxy_temp_path \(path)/proxy;
                  uwsgi_temp_path \(path)/uwsgi; scgi_temp_path \(path)/scgi;
                  server {
                    listen 127.0.0.1:\(port);
                    location / {
                      auth_basic "git"; auth_basic_user_file \(path)/htpasswd;
                      include /etc/nginx/fastcgi_params;
                      fastcgi_pass unix:\(socket);
                      fastcgi_param SCRIPT_FILENAME /usr/lib/git-core/git-http-backend;
                      fastcgi_param GIT_PROJECT_ROOT \(path)/srv;
                      fastcgi_param GIT_HTTP_EXPORT_ALL "";
                      fastcgi_param PATH_INFO $uri;
                      fastcgi_param REMOTE_USER $remote_user;
                    }
                  }
                }
                """
            try? Data(config.utf8).write(to: configURL)
            return ["-p", path, "-c", configURL.path]
        })
    }

    deinit {
        Fixture.stop(fcgiwrap)
    }
}

@Suite(.serialized, .enabled(if: FileManager.default.fileExists(atPath: "/usr/sbin/nginx")
                                && FileManager.default.fileExists(atPath: "/usr/sbin/fcgiwrap") && getuid() == 0,
                             "needs root, nginx and fcgiwrap (make test-deps installs them)"))
struct HTTPTests {
    func setUp(_ temp: TemporaryDirectory) throws -> (HTTPGitServer, Repository) {
        try FileManager.default.createDirectory(at: temp.path("http/srv"), withIntermediateDirectories: true)
        _ = try Repository.create(at: temp.path("http/srv/vault.git"), bare: true)
        let server = try HTTPGitServer(directory: temp.path("http"))
        let repo = try Repository.create(at: temp.path("work"))
        try repo.createRemote(named: "origin", url: "http://quire@127.0.0.1:\(server.port)/vault.git")
        try Fixture.write("over http\n", to: "n.md", in: temp.path("work"))
        try Fixture.commitAll(repo, "n", at: 0)
        return (server, repo)
    }

    func options(_ environment: [String: String]) -> TransferOptions {
        var credentials = Credentials(environment: environment)
        credentials.useSSHAgent = false
        return TransferOptions(credentials: credentials, timeout: 30)
    }

    @Test func tokenFromEnvironmentPushesAndFetches() throws {
        let temp = try TemporaryDirectory()
        let (server, repo) = try setUp(temp)
        let environment = ["HOME": temp.path("nohome").path, "QUIRE_GIT_TOKEN": "secret"]
        try #require(try repo.remote(named: "origin")).push(refspecs: ["refs/heads/main:refs/heads/main"],
                                                            options: options(environment))
        let clone = try Repository.clone(from: "http://127.0.0.1:\(server.port)/vault.git", to: temp.path("clone"),
                                         options: options(environment))
        #expect(try clone.headCommitID() == repo.headCommitID())
    }

    @Test func gitCredentialsFileIsUsed() throws {
        let temp = try TemporaryDirectory()
        let (server, repo) = try setUp(temp)
        let home = temp.path("home")
        try Fixture.write("https://other:x@example.com\nhttp://quire:secret@127.0.0.1:\(server.port)\n",
                          to: ".git-credentials", in: home)
        try #require(try repo.remote(named: "origin")).push(refspecs: ["refs/heads/main:refs/heads/main"],
                                                            options: options(["HOME": home.path]))
    }

    @Test func configuredCredentialHelperIsAsked() throws {
        let temp = try TemporaryDirectory()
        let (server, repo) = try setUp(temp)
        let home = temp.path("helper-home")
        // A helper as a user would configure one in ~/.gitconfig (no token, no ~/.git-credentials).
        try Fixture.write("[credential]\n\thelper = \"!f() { echo username=quire; echo password=secret; }; f\"\n",
                          to: ".gitconfig", in: home)
        try #require(try repo.remote(named: "origin")).push(refspecs: ["refs/heads/main:refs/heads/main"],
                                                            options: options(["HOME": home.path]))
        let clone = try Repository.clone(from: "http://127.0.0.1:\(server.port)/vault.git", to: temp.path("clone"),
                                         options: options(["HOME": home.path]))
        #expect(try clone.headCommitID() == repo.headCommitID())
    }

    /// A credential helper that never answers is abandoned after 10 s together with every
    /// process git started for it (it outlived quire, one per sync of the daemon).
    @Test func aHelperThatNeverAnswersDoesNotOutliveThePush() throws {
        let temp = try TemporaryDirectory()
        let (server, repo) = try setUp(temp)
        defer { withExtendedLifetime(server) {} }  // the server stops with its value
        let home = temp.path("stuck-home")
        let pidFile = temp.path("helper.pid")
        try ExecutableScript.write("#!/bin/sh\necho $$ > \(pidFile.path)\nexec sleep 300\n", to: home.appendingPathComponent("stuck-helper"))
        try Fixture.write("[credential]\n\thelper = \(home.appendingPathComponent("stuck-helper").path)\n", to: ".gitconfig", in: home)
        do {
            try #require(try repo.remote(named: "origin")).push(refspecs: ["refs/heads/main:refs/heads/main"],
                                                                options: options(["HOME": home.path]))
            Issue.record("a helper that never answers gives no credentials")
        } catch let error as GitError {
            #expect(error.category == .authentication, "\(error)")
        }
        let pid = try #require(Int32(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        var gone = false
        for _ in 0..<100 where !gone {
            gone = kill(pid, 0) != 0
            if !gone { usleep(20_000) }
        }
        if !gone { kill(pid, SIGKILL) }
        #expect(gone, "the helper \(pid) still runs")
    }

    @Test func wrongTokenIsAuthenticationFailure() throws {
        let temp = try TemporaryDirectory()
        let (server, repo) = try setUp(temp)
        #expect(GitDaemon.isListening(server.port))
        do {
            try #require(try repo.remote(named: "origin")).fetch(
                options: options(["HOME": temp.path("nohome").path, "QUIRE_GIT_TOKEN": "wrong"]))
            Issue.record("a wrong token must fail")
        } catch let error as GitError {
            #expect(error.category == .authentication, Comment(rawValue: "\(error) \(error.errorClass) \(error.code)"))
            #expect(!error.message.contains("wrong"))
        }
    }

    @Test func missingRepositoryIsNotFound() throws {
        let temp = try TemporaryDirectory()
        let (server, repo) = try setUp(temp)
        try repo.setRemoteURL(named: "origin", url: "http://quire@127.0.0.1:\(server.port)/absent.git")
        do {
            try #require(try repo.remote(named: "origin")).fetch(
                options: options(["HOME": temp.path("nohome").path, "QUIRE_GIT_TOKEN": "secret"]))
            Issue.record("a missing repository must fail")
        } catch let error as GitError {
            #expect(error.category == .repositoryNotFound, Comment(rawValue: error.description))
        }
    }
}
