#ifndef SSOKIT_CFUZZHARNESS_H
#define SSOKIT_CFUZZHARNESS_H
// Test-harness code for the SAML fuzz targets only; SSOKit's libraries never call it.
//
// A fuzzer that mutates a signed document almost always breaks its digest, so it never reaches the checks that
// run after signature verification. The sealer signs (and encrypts) each mutated Response with the IdP's key
// (and the SP's certificate) right before the verifier sees it.
#include <stddef.h>

/// Layout flags for fuzz_saml_seal, applied in this order: sign the Assertion, encrypt it (into an
/// EncryptedAssertion: RSA-OAEP key transport, AES-128-CBC or, with FUZZ_SAML_GCM, AES-256-GCM), sign the Response.
enum {
    FUZZ_SAML_SIGN_ASSERTION = 1,
    FUZZ_SAML_SIGN_RESPONSE = 2,
    FUZZ_SAML_ENCRYPT_ASSERTION = 4,
    FUZZ_SAML_GCM = 8,
};

/// The IdP signing key and the SP encryption certificate, loaded once.
typedef struct fuzz_saml_sealer fuzz_saml_sealer;

/// Loads the PEM signing key (RSA or EC) and the PEM encryption certificate (RSA). NULL on failure.
fuzz_saml_sealer *fuzz_saml_sealer_create(
    const unsigned char *signing_key_pem, size_t signing_key_length, const unsigned char *encryption_cert_pem,
    size_t encryption_cert_length);

/// Applies `layout` to the Response in `xml` (whose root must carry an ID; the Assertion is the root's first
/// child element named Assertion in the SAML assertion namespace). Returns 0 with a malloc'd document in *output
/// (free with free()), or -1 when the input cannot be sealed this way (not XML, no ID, no assertion ...).
int fuzz_saml_seal(
    const fuzz_saml_sealer *sealer, const unsigned char *xml, size_t length, int layout, unsigned char **output,
    size_t *output_length);

#endif
