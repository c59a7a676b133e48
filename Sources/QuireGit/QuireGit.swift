/// The QuireGit module.
public enum QuireGitModule {}
