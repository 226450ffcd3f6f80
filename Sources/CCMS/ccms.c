#include "ccms.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

/// Adds every CERTIFICATE block of a PEM text to `store` (when not NULL); returns how many, or -1 when a block
/// cannot be read.
static int add_pem_certificates(X509_STORE *store, const char *pem, size_t length) {
    if (length > INT_MAX) return -1;
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    if (bio == NULL) return -1;
    int count = 0;
    for (;;) {
        X509 *certificate = PEM_read_bio_X509(bio, NULL, NULL, NULL);
        if (certificate == NULL) break;
        int added = store == NULL || X509_STORE_add_cert(store, certificate) == 1;
        X509_free(certificate);
        if (!added) {
            count = -1;
            break;
        }
        count++;
    }
    // The end of the text reads as "no start line"; any other error is a block that could not be read.
    unsigned long error = ERR_peek_last_error();
    if (count >= 0 && error != 0
        && !(ERR_GET_LIB(error) == ERR_LIB_PEM && ERR_GET_REASON(error) == PEM_R_NO_START_LINE)) {
        count = -1;
    }
    ERR_clear_error();
    BIO_free(bio);
    return count;
}

/// The certificate's subject as RFC 2253 text (UTF-8 kept as it is), malloc'd.
static char *subject_text(X509 *certificate) {
    BIO *bio = BIO_new(BIO_s_mem());
    if (bio == NULL) return NULL;
    char *text = NULL;
    if (X509_NAME_print_ex(bio, X509_get_subject_name(certificate), 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB) >= 0) {
        char *data = NULL;
        long length = BIO_get_mem_data(bio, &data);
        if (length >= 0 && (text = malloc((size_t)length + 1)) != NULL) {
            if (length > 0) memcpy(text, data, (size_t)length);
            text[length] = '\0';
        }
    }
    BIO_free(bio);
    return text;
}

/// A store trusting every certificate of `pem` at time `at`, for any purpose; NULL with *status set otherwise.
static X509_STORE *anchor_store(const char *pem, size_t length, int64_t at, int *status) {
    X509_STORE *store = X509_STORE_new();
    if (store == NULL) {
        *status = SSOKIT_CMS_INTERNAL;
        return NULL;
    }
    if (add_pem_certificates(store, pem, length) <= 0) {
        X509_STORE_free(store);
        *status = SSOKIT_CMS_BAD_ANCHORS;
        return NULL;
    }
    X509_VERIFY_PARAM *parameters = X509_STORE_get0_param(store);
    X509_VERIFY_PARAM_set_time(parameters, (time_t)at);
    // Profiles are signed with S/MIME, code-signing or TLS server certificates alike: the anchor decides, not the
    // extended key usage. An anchor need not be self-signed (an organisation may trust its issuing CA alone).
    X509_VERIFY_PARAM_set_purpose(parameters, X509_PURPOSE_ANY);
    X509_VERIFY_PARAM_set_flags(parameters, X509_V_FLAG_PARTIAL_CHAIN);
    return store;
}

ssokit_cms_result ssokit_cms_open(
    const unsigned char *der, size_t der_length, const char *anchors_pem, size_t anchors_length, int64_t at) {
    ssokit_cms_result result = {SSOKIT_CMS_INTERNAL, NULL, 0, NULL};
    if (der_length > INT_MAX) {
        result.status = SSOKIT_CMS_MALFORMED;
        return result;
    }
    BIO *input = BIO_new_mem_buf(der, (int)der_length);
    BIO *content = BIO_new(BIO_s_mem());
    BIO *sink = BIO_new(BIO_s_null());
    CMS_ContentInfo *cms = NULL;
    STACK_OF(X509) *signers = NULL;
    X509_STORE *store = NULL;
    if (input == NULL || content == NULL || sink == NULL) goto done;

    cms = d2i_CMS_bio(input, NULL);
    if (cms == NULL) {
        result.status = SSOKIT_CMS_MALFORMED;
        goto done;
    }
    if (OBJ_obj2nid(CMS_get0_type(cms)) != NID_pkcs7_signed) {
        result.status = SSOKIT_CMS_NOT_SIGNED_DATA;
        goto done;
    }
    if (CMS_is_detached(cms)) {
        result.status = SSOKIT_CMS_DETACHED;
        goto done;
    }
    // First the signatures alone, with the certificates the message carries: a failure here is tampering.
    if (CMS_verify(cms, NULL, NULL, NULL, content, CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY) != 1) {
        result.status = SSOKIT_CMS_BAD_SIGNATURE;
        goto done;
    }
    signers = CMS_get0_signers(cms);
    if (signers == NULL || sk_X509_num(signers) < 1) {
        result.status = SSOKIT_CMS_BAD_SIGNATURE;
        goto done;
    }
    // Then, with anchors, who signed: a failure here is a signer the caller does not trust.
    if (anchors_pem != NULL) {
        int status = SSOKIT_CMS_INTERNAL;
        store = anchor_store(anchors_pem, anchors_length, at, &status);
        if (store == NULL) {
            result.status = status;
            goto done;
        }
        if (CMS_verify(cms, NULL, store, NULL, sink, CMS_BINARY) != 1) {
            result.status = SSOKIT_CMS_UNTRUSTED_SIGNER;
            goto done;
        }
    }
    char *data = NULL;
    long length = BIO_get_mem_data(content, &data);
    if (length < 0) goto done;
    result.content = malloc(length > 0 ? (size_t)length : 1);
    result.signer_subject = subject_text(sk_X509_value(signers, 0));
    if (result.content == NULL || result.signer_subject == NULL) {
        ssokit_cms_result_free(&result);
        result.status = SSOKIT_CMS_INTERNAL;
        goto done;
    }
    if (length > 0) memcpy(result.content, data, (size_t)length);
    result.content_length = (size_t)length;
    result.status = SSOKIT_CMS_OK;

done:
    sk_X509_free(signers);
    X509_STORE_free(store);
    CMS_ContentInfo_free(cms);
    BIO_free(sink);
    BIO_free(content);
    BIO_free(input);
    ERR_clear_error();
    return result;
}

void ssokit_cms_result_free(ssokit_cms_result *result) {
    free(result->content);
    free(result->signer_subject);
    result->content = NULL;
    result->content_length = 0;
    result->signer_subject = NULL;
}

int ssokit_pem_certificate_count(const char *pem, size_t length) {
    return add_pem_certificates(NULL, pem, length);
}
