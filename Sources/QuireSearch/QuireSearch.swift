/// The QuireSearch module.
public enum QuireSearchModule {}
