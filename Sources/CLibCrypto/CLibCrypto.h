// Intentionally empty: CCMS includes the OpenSSL headers it needs.
