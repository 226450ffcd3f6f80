// Signs and encrypts fuzzed SAML Responses for the fuzz harness (see CFuzzHarness.h). Signing reuses the CXMLSec
// shim; encryption uses xmlsec's templates, as an IdP would.

#include "CFuzzHarness.h"
#include "CXMLSec.h"

#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>
#include <xmlsec/crypto.h>
#include <xmlsec/keys.h>
#include <xmlsec/keysmngr.h>
#include <xmlsec/templates.h>
#include <xmlsec/xmlenc.h>
#include <xmlsec/xmlsec.h>
#include <xmlsec/openssl/app.h>

static const char *const protocol_ns = "urn:oasis:names:tc:SAML:2.0:protocol";
static const char *const assertion_ns = "urn:oasis:names:tc:SAML:2.0:assertion";

struct fuzz_saml_sealer {
    ssokit_key *signing_key;
    int signing_is_ec;
    xmlSecKeysMngrPtr encryption_keys;
};

fuzz_saml_sealer *fuzz_saml_sealer_create(
    const unsigned char *signing_key_pem, size_t signing_key_length, const unsigned char *encryption_cert_pem,
    size_t encryption_cert_length) {
    if (ssokit_xmlsec_initialize() != 0) return NULL;
    fuzz_saml_sealer *sealer = calloc(1, sizeof(fuzz_saml_sealer));
    if (sealer == NULL) return NULL;
    sealer->signing_key = ssokit_key_private_from_pem(signing_key_pem, signing_key_length, NULL, 0);
    if (sealer->signing_key == NULL) goto fail;
    sealer->signing_is_ec = ssokit_key_type(sealer->signing_key) == 2;
    xmlSecKeyPtr encryption_key = xmlSecOpenSSLAppKeyLoadMemory(
        encryption_cert_pem, (xmlSecSize)encryption_cert_length, xmlSecKeyDataFormatCertPem, NULL, NULL, NULL);
    if (encryption_key == NULL) goto fail;
    sealer->encryption_keys = xmlSecKeysMngrCreate();
    if (sealer->encryption_keys == NULL || xmlSecOpenSSLAppDefaultKeysMngrInit(sealer->encryption_keys) < 0 ||
        xmlSecOpenSSLAppDefaultKeysMngrAdoptKey(sealer->encryption_keys, encryption_key) < 0) {
        xmlSecKeyDestroy(encryption_key);
        goto fail;
    }
    return sealer;
fail:
    if (sealer->signing_key != NULL) ssokit_key_free(sealer->signing_key);
    if (sealer->encryption_keys != NULL) xmlSecKeysMngrDestroy(sealer->encryption_keys);
    free(sealer);
    return NULL;
}

static int is_element(xmlNodePtr node, const char *name, const char *ns) {
    return node != NULL && node->type == XML_ELEMENT_NODE && node->ns != NULL && node->ns->href != NULL &&
           strcmp((const char *)node->name, name) == 0 && strcmp((const char *)node->ns->href, ns) == 0;
}

static xmlNodePtr first_child(xmlNodePtr parent, const char *name, const char *ns) {
    for (xmlNodePtr child = parent->children; child != NULL; child = child->next) {
        if (is_element(child, name, ns)) return child;
    }
    return NULL;
}

/// An enveloped signature over `element`, after its Issuer child as SAML's schema orders it.
static int sign(const fuzz_saml_sealer *sealer, xmlNodePtr element) {
    char *id = ssokit_node_attribute(element, "ID");
    if (id == NULL) return -1;
    int rc = ssokit_dsig_sign_enveloped(
        element, id, first_child(element, "Issuer", assertion_ns), sealer->signing_key,
        sealer->signing_is_ec ? SSOKIT_SIGN_ECDSA_SHA256 : SSOKIT_SIGN_RSA_SHA256);
    ssokit_free(id);
    return rc;
}

/// Wraps `assertion` in a saml:EncryptedAssertion and replaces it there by its xenc:EncryptedData.
static int encrypt(const fuzz_saml_sealer *sealer, xmlNodePtr assertion, int gcm) {
    xmlNodePtr wrapper = xmlNewDocNode(assertion->doc, NULL, BAD_CAST "EncryptedAssertion", NULL);
    if (wrapper == NULL) return -1;
    xmlNsPtr ns = xmlNewNs(wrapper, BAD_CAST assertion_ns, BAD_CAST "saml");
    if (ns == NULL) {
        xmlFreeNode(wrapper);
        return -1;
    }
    xmlSetNs(wrapper, ns);
    xmlReplaceNode(assertion, wrapper);
    xmlAddChild(wrapper, assertion);

    xmlSecTransformId cipher = gcm ? xmlSecTransformAes256GcmId : xmlSecTransformAes128CbcId;
    xmlNodePtr data = xmlSecTmplEncDataCreate(assertion->doc, cipher, NULL, xmlSecTypeEncElement, NULL, NULL);
    if (data == NULL) return -1;
    xmlNodePtr key_info = NULL;
    xmlNodePtr encrypted_key = NULL;
    if (xmlSecTmplEncDataEnsureCipherValue(data) == NULL ||
        (key_info = xmlSecTmplEncDataEnsureKeyInfo(data, NULL)) == NULL ||
        (encrypted_key = xmlSecTmplKeyInfoAddEncryptedKey(key_info, xmlSecTransformRsaOaepId, NULL, NULL, NULL)) ==
            NULL ||
        xmlSecTmplEncDataEnsureCipherValue(encrypted_key) == NULL) {
        xmlFreeNode(data);
        return -1;
    }
    xmlSecEncCtxPtr ctx = xmlSecEncCtxCreate(sealer->encryption_keys);
    if (ctx == NULL) {
        xmlFreeNode(data);
        return -1;
    }
    ctx->encKey = xmlSecKeyGenerate(xmlSecKeyDataAesId, gcm ? 256 : 128, xmlSecKeyDataTypeSession);
    int rc = ctx->encKey == NULL ? -1 : xmlSecEncCtxXmlEncrypt(ctx, data, assertion);
    xmlSecEncCtxDestroy(ctx);
    // On success the template took the assertion's place in the tree (and the assertion was freed).
    if (rc < 0) xmlFreeNode(data);
    return rc < 0 ? -1 : 0;
}

int fuzz_saml_seal(
    const fuzz_saml_sealer *sealer, const unsigned char *xml, size_t length, int layout, unsigned char **output,
    size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    if (sealer == NULL || length > (1u << 20)) return -1;
    ssokit_parse_status status;
    ssokit_parse_limits limits = {.max_depth = 64, .max_attributes = 64, .max_namespaces = 64};
    xmlDocPtr doc = ssokit_xml_parse((const char *)xml, (int)length, &limits, &status);
    if (doc == NULL) return -1;
    int rc = -1;
    xmlNodePtr response = xmlDocGetRootElement(doc);
    if (!is_element(response, "Response", protocol_ns) || ssokit_register_ids(doc, response) != 0) goto done;
    xmlNodePtr assertion = first_child(response, "Assertion", assertion_ns);
    if ((layout & (FUZZ_SAML_SIGN_ASSERTION | FUZZ_SAML_ENCRYPT_ASSERTION)) != 0 && assertion == NULL) goto done;
    if ((layout & FUZZ_SAML_SIGN_ASSERTION) != 0 && sign(sealer, assertion) != 0) goto done;
    if ((layout & FUZZ_SAML_ENCRYPT_ASSERTION) != 0 &&
        encrypt(sealer, assertion, (layout & FUZZ_SAML_GCM) != 0) != 0) {
        goto done;
    }
    if ((layout & FUZZ_SAML_SIGN_RESPONSE) != 0 && sign(sealer, response) != 0) goto done;
    rc = ssokit_xml_serialize(doc, output, output_length) == 0 ? 0 : -1;
done:
    ssokit_doc_free(doc);
    return rc;
}
