import QuireCLI
