#include "CXMLSecReference.h"

#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/valid.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <xmlsec/xmlsec.h>
#include <xmlsec/errors.h>
#include <xmlsec/keys.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/xmltree.h>
#include <xmlsec/crypto.h>
#include <xmlsec/openssl/app.h>
#include <xmlsec/openssl/crypto.h>
#include <xmlsec/openssl/evp.h>

static void quiet(const char *file, int line, const char *func, const char *object, const char *subject, int reason,
                  const char *message) {
    (void)file; (void)line; (void)func; (void)object; (void)subject; (void)reason; (void)message;
}

void *ssokit_reference_load_key(const unsigned char *certificate_pem, size_t length, int bare) {
    static int initialized = 0;
    if (!initialized) {
        xmlInitParser();
        xmlSecErrorsSetCallback(quiet);
        if (xmlSecInit() < 0 || xmlSecOpenSSLAppInit(NULL) < 0 || xmlSecOpenSSLInit() < 0) return NULL;
        initialized = 1;
    }
    if (!bare) {
        return xmlSecOpenSSLAppKeyLoadMemory(
            certificate_pem, (xmlSecSize)length, xmlSecKeyDataFormatCertPem, NULL, NULL, NULL);
    }
    BIO *bio = BIO_new_mem_buf(certificate_pem, (int)length);
    X509 *certificate = bio == NULL ? NULL : PEM_read_bio_X509(bio, NULL, NULL, NULL);
    BIO_free(bio);
    if (certificate == NULL) return NULL;
    EVP_PKEY *public_key = X509_get_pubkey(certificate);
    X509_free(certificate);
    xmlSecKeyDataPtr value = public_key == NULL ? NULL : xmlSecOpenSSLEvpKeyAdopt(public_key);
    xmlSecKeyPtr key = xmlSecKeyCreate();
    if (value == NULL || key == NULL || xmlSecKeySetValue(key, value) < 0) {
        if (key != NULL) xmlSecKeyDestroy(key);
        else if (value != NULL) xmlSecKeyDataDestroy(value);
        return NULL;
    }
    return key;
}

void ssokit_reference_free_key(void *key) {
    if (key != NULL) xmlSecKeyDestroy((xmlSecKeyPtr)key);
}

int ssokit_reference_verify(const void *key, const char *xml, int length) {
    xmlDocPtr doc = xmlReadMemory(xml, length, NULL, NULL, XML_PARSE_NONET);
    if (doc == NULL) return -1;
    int result = -1;
    xmlNodePtr assertion = xmlSecFindNode(
        xmlDocGetRootElement(doc), BAD_CAST "Assertion", BAD_CAST "urn:oasis:names:tc:SAML:2.0:assertion");
    xmlNodePtr signature = assertion == NULL ? NULL : xmlSecFindChild(assertion, xmlSecNodeSignature, xmlSecDSigNs);
    xmlAttrPtr id = assertion == NULL ? NULL : xmlHasProp(assertion, BAD_CAST "ID");
    if (signature != NULL && id != NULL) {
        xmlChar *value = xmlNodeListGetString(doc, id->children, 1);
        if (value != NULL && xmlAddID(NULL, doc, value, id) != NULL) {
            xmlSecDSigCtxPtr ctx = xmlSecDSigCtxCreate(NULL);
            if (ctx != NULL) {
                ctx->signKey = xmlSecKeyDuplicate((xmlSecKeyPtr)key);
                if (ctx->signKey != NULL && xmlSecDSigCtxVerify(ctx, signature) == 0) {
                    result = ctx->status == xmlSecDSigStatusSucceeded ? 1 : 0;
                }
                xmlSecDSigCtxDestroy(ctx);
            }
        }
        if (value != NULL) xmlFree(value);
    }
    xmlFreeDoc(doc);
    return result;
}

int ssokit_reference_parse(const char *xml, int length) {
    xmlDocPtr doc = xmlReadMemory(xml, length, NULL, NULL, XML_PARSE_NONET);
    if (doc == NULL) return 0;
    xmlFreeDoc(doc);
    return 1;
}
