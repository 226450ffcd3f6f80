#ifndef SSOKIT_CXMLSEC_REFERENCE_H
#define SSOKIT_CXMLSEC_REFERENCE_H

// The benchmark's reference: a plain C loop body over libxml2 + xmlsec, as a C program would verify a SAML
// assertion signature with no further checks. Not part of SSOKit's library.

#include <stddef.h>

/// Loads the pinned key from a PEM certificate: with the certificate (`bare` = 0) or its public key only.
/// Returns the key (free it with ssokit_reference_free_key), or NULL on error. Initializes xmlsec on first use.
void *ssokit_reference_load_key(const unsigned char *certificate_pem, size_t length, int bare);

/// Frees a key from ssokit_reference_load_key.
void ssokit_reference_free_key(void *key);

/// Parses `xml` from memory, registers the Assertion's ID, and verifies the assertion's signature with `key` in a
/// fresh context. Returns 1 when the signature is valid, 0 when not, -1 on error.
int ssokit_reference_verify(const void *key, const char *xml, int length);

/// Parses `xml` from memory and frees it: libxml2 parsing alone. Returns 1 on success.
int ssokit_reference_parse(const char *xml, int length);

#endif
