/// The QuireSync module.
public enum QuireSyncModule {}
