"""Reading company records: corpus files → validated records → proposals → checked facts → graph."""
