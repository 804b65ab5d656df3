// The Swift client library (issue 6) is written here.
