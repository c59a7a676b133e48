/// The QuireCLI module.
public enum QuireCLIModule {}
