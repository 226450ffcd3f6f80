#ifndef SSOKIT_CCMS_H
#define SSOKIT_CCMS_H

// A small C surface over OpenSSL's CMS for SSOKitExtension: opening a signed configuration profile (DER or BER
// CMS SignedData with the content embedded). OpenSSL's types stay private to ccms.c; Swift sees plain status codes.

#include <stddef.h>
#include <stdint.h>

/// What ssokit_cms_open concluded.
enum {
    /// Every signature verifies (and, with anchors, the signer chains to one of them).
    SSOKIT_CMS_OK = 0,
    /// The input is not a CMS ContentInfo.
    SSOKIT_CMS_MALFORMED = 1,
    /// The ContentInfo is not SignedData.
    SSOKIT_CMS_NOT_SIGNED_DATA = 2,
    /// The SignedData does not embed its content (a detached signature).
    SSOKIT_CMS_DETACHED = 3,
    /// A signature or content digest does not verify with the signer certificate the message carries, or that
    /// certificate is absent.
    SSOKIT_CMS_BAD_SIGNATURE = 4,
    /// The signatures verify but a signer does not chain to the anchors at the given time.
    SSOKIT_CMS_UNTRUSTED_SIGNER = 5,
    /// The anchors text holds no readable PEM certificate.
    SSOKIT_CMS_BAD_ANCHORS = 6,
    /// OpenSSL could not allocate what it needed.
    SSOKIT_CMS_INTERNAL = 7,
};

/// The result of ssokit_cms_open. Free it with ssokit_cms_result_free.
typedef struct ssokit_cms_result {
    /// One of the SSOKIT_CMS_ codes.
    int status;
    /// The signed content (malloc'd), when status is OK.
    unsigned char *content;
    size_t content_length;
    /// The first signer's subject, RFC 2253, NUL-terminated (malloc'd), when status is OK.
    char *signer_subject;
} ssokit_cms_result;

/// Opens `der` as CMS SignedData and verifies every signer's signature with the certificate the message carries.
/// When `anchors_pem` is not NULL, each signer must also chain, through the certificates the message carries, to a
/// certificate of that PEM text (any of them is an anchor, self-signed or not) at Unix time `at`, for any purpose.
/// Leaves OpenSSL's error queue empty.
ssokit_cms_result ssokit_cms_open(
    const unsigned char *der, size_t der_length, const char *anchors_pem, size_t anchors_length, int64_t at);

/// Frees what a result holds.
void ssokit_cms_result_free(ssokit_cms_result *result);

/// The number of certificates in a PEM text, or -1 when a CERTIFICATE block cannot be read.
int ssokit_pem_certificate_count(const char *pem, size_t length);

#endif
