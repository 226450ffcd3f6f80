// libxml2 + xmlsec1-openssl behind a handful of functions. No canonicalisation or cryptography is written here:
// every digest, signature and cipher runs inside xmlsec and OpenSSL.

#define _GNU_SOURCE  // memmem
#include "CXMLSec.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/valid.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <zlib.h>

#include <xmlsec/crypto.h>
#include <xmlsec/errors.h>
#include <xmlsec/io.h>
#include <xmlsec/keyinfo.h>
#include <xmlsec/keys.h>
#include <xmlsec/keysmngr.h>
#include <xmlsec/parser.h>
#include <xmlsec/templates.h>
#include <xmlsec/transforms.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/xmlenc.h>
#include <xmlsec/xmlsec.h>
#include <xmlsec/xmltree.h>
#include <xmlsec/openssl/app.h>
#include <xmlsec/openssl/crypto.h>
#include <xmlsec/openssl/evp.h>
#include <xmlsec/openssl/x509.h>

struct ssokit_key {
    xmlSecKeyPtr key;
};

// MARK: - Initialisation

static pthread_once_t ssokit_once = PTHREAD_ONCE_INIT;
static int ssokit_init_result = -1;

static void ssokit_quiet_xmlsec(const char *file, int line, const char *func, const char *errorObject,
                                const char *errorSubject, int reason, const char *msg) {
    (void)file; (void)line; (void)func; (void)errorObject; (void)errorSubject; (void)reason; (void)msg;
}

static void ssokit_quiet_generic(void *context, const char *message, ...) {
    (void)context; (void)message;
}

static void ssokit_quiet_structured(void *context, xmlErrorPtr error) {
    (void)context; (void)error;
}

static void ssokit_silence_this_thread(void) {
    xmlSetGenericErrorFunc(NULL, ssokit_quiet_generic);
    xmlSetStructuredErrorFunc(NULL, ssokit_quiet_structured);
}

static void ssokit_initialize_once(void) {
    xmlInitParser();
    xmlThrDefSetGenericErrorFunc(NULL, ssokit_quiet_generic);
    xmlThrDefSetStructuredErrorFunc(NULL, ssokit_quiet_structured);
    ssokit_silence_this_thread();
    // Never load external DTDs or substitute entities by default, process-wide.
    xmlThrDefLoadExtDtdDefaultValue(0);
    xmlThrDefSubstituteEntitiesDefaultValue(0);
    xmlSecErrorsSetCallback(ssokit_quiet_xmlsec);
    if (xmlSecInit() < 0) return;
    if (xmlSecCheckVersion() != 1) return;
    // xmlSecInit registers file, HTTP and FTP readers for URIs met while processing a signature or an encrypted
    // element; SSOKit never reads anything but the message itself, so none stays registered (defence in depth
    // behind every context's enabledUris, which XML_PARSE_NONET does not cover). Decrypted content is parsed
    // without XML_PARSE_HUGE, so libxml2's own size and depth limits hold for it.
    xmlSecIOCleanupCallbacks();
    xmlSecParserSetDefaultOptions(XML_PARSE_NONET | XML_PARSE_NODICT);
    if (xmlSecOpenSSLAppInit(NULL) < 0) return;
    if (xmlSecOpenSSLInit() < 0) return;
    ssokit_init_result = 0;
}

int ssokit_xmlsec_initialize(void) {
    pthread_once(&ssokit_once, ssokit_initialize_once);
    if (ssokit_init_result == 0) ssokit_silence_this_thread();
    return ssokit_init_result;
}

// MARK: - Parsing

typedef struct {
    int saw_doctype;
    // Element nesting while parsing (the root is at depth 1) and the deepest seen: the depth limit is enforced
    // from these, without a second walk over the finished tree.
    int depth;
    int deepest;
    // Attributes on one element, and namespace declarations in scope (on the element and its ancestors), each
    // against its cap: libxml2 appends an element's attributes one list walk at a time and exclusive C14N searches
    // every in-scope declaration for every element of the document (once per PrefixList entry), so beyond a few
    // dozen of either a small document costs seconds. Set when a cap is passed; the parser is then stopped.
    int max_attributes;
    int max_namespaces;
    int namespaces_in_scope;
    int too_complex;
    // When not NULL, ssokit_scan_document's work, done element by element (see ssokit_note_element).
    const char *assertion_namespace;
    ssokit_parse_scan *scan;
} ssokit_parse_state;

static int ssokit_register_attribute(xmlDocPtr doc, xmlAttrPtr attribute);

// One element just built by the parser, as ssokit_scan_document examines it in its walk: document order is the
// parser's order, and an element at depth 2 is a child of the root.
static void ssokit_note_element(xmlParserCtxtPtr parser, ssokit_parse_state *state, xmlNodePtr parent) {
    ssokit_parse_scan *scan = state->scan;
    if (!scan->complete || scan->result != 0) return;
    xmlNodePtr node = parser->node;
    xmlNodePtr expected_parent = parent != NULL ? parent : (xmlNodePtr)parser->myDoc;
    if (node == NULL || node == parent || node->type != XML_ELEMENT_NODE || node->parent != expected_parent ||
        parser->myDoc == NULL) {
        scan->complete = 0;
        return;
    }
    if (state->depth > 1 && node->ns != NULL &&
        (xmlStrEqual(node->name, BAD_CAST "Assertion") || xmlStrEqual(node->name, BAD_CAST "EncryptedAssertion")) &&
        xmlStrEqual(node->ns->href, BAD_CAST state->assertion_namespace)) {
        if (scan->count == 0) scan->first = node;
        scan->count += 1;
        if (state->depth != 2) scan->misplaced = 1;
    }
    for (xmlAttrPtr attribute = node->properties; attribute != NULL; attribute = attribute->next) {
        int is_saml_id = attribute->ns == NULL && xmlStrEqual(attribute->name, BAD_CAST "ID");
        int is_xml_id = attribute->ns != NULL && xmlStrEqual(attribute->name, BAD_CAST "id") &&
                        xmlStrEqual(attribute->ns->href, XML_XML_NAMESPACE);
        if ((is_saml_id || is_xml_id) && ssokit_register_attribute(parser->myDoc, attribute) < 0) {
            scan->result = -1;
            return;
        }
    }
}

static void ssokit_start_element(void *ctx, const xmlChar *local_name, const xmlChar *prefix, const xmlChar *uri,
                                 int namespace_count, const xmlChar **namespaces, int attribute_count,
                                 int defaulted_count, const xmlChar **attributes) {
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)ctx;
    ssokit_parse_state *state = (ssokit_parse_state *)parser->_private;
    if (state != NULL) {
        if (++state->depth > state->deepest) state->deepest = state->depth;
        state->namespaces_in_scope += namespace_count;
        if (attribute_count > state->max_attributes || state->namespaces_in_scope > state->max_namespaces) {
            // Before the element is built: its attributes are the expensive part.
            state->too_complex = 1;
            xmlStopParser(parser);
            return;
        }
    }
    xmlNodePtr parent = parser->node;
    xmlSAX2StartElementNs(ctx, local_name, prefix, uri, namespace_count, namespaces, attribute_count, defaulted_count,
                          attributes);
    if (state != NULL && state->scan != NULL) ssokit_note_element(parser, state, parent);
}

static void ssokit_end_element(void *ctx, const xmlChar *local_name, const xmlChar *prefix, const xmlChar *uri) {
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)ctx;
    ssokit_parse_state *state = (ssokit_parse_state *)parser->_private;
    if (state != NULL) {
        state->depth--;
        // The element closing is parser->node: its declarations leave scope with it.
        xmlNodePtr node = parser->node;
        if (node != NULL && node->type == XML_ELEMENT_NODE) {
            for (xmlNsPtr ns = node->nsDef; ns != NULL; ns = ns->next) state->namespaces_in_scope--;
        }
    }
    xmlSAX2EndElementNs(ctx, local_name, prefix, uri);
}

static void ssokit_refuse_subset(void *ctx, const xmlChar *name, const xmlChar *external_id,
                                 const xmlChar *system_id) {
    (void)name; (void)external_id; (void)system_id;
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)ctx;
    ssokit_parse_state *state = (ssokit_parse_state *)parser->_private;
    if (state != NULL) state->saw_doctype = 1;
    xmlStopParser(parser);
}

static void ssokit_refuse_entity(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                                 const xmlChar *system_id, xmlChar *content) {
    (void)name; (void)type; (void)public_id; (void)system_id; (void)content;
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)ctx;
    ssokit_parse_state *state = (ssokit_parse_state *)parser->_private;
    if (state != NULL) state->saw_doctype = 1;
    xmlStopParser(parser);
}

// libxml2 2.9 keeps scanning after a well-formedness error (with SAX disabled), raising and formatting one error per
// bad token: a small compressed document of '<'s then costs a long parse. A fatal error already makes the document
// refused, so the parse stops at the first one; warnings and namespace errors go on as before.
static void ssokit_stop_at_fatal_error(void *ctx, xmlErrorPtr error) {
    if (ctx == NULL || error == NULL || error->level != XML_ERR_FATAL) return;
    xmlStopParser((xmlParserCtxtPtr)ctx);
}

// The parse's caps, checked again over a finished tree (the plaintext of an EncryptedAssertion joins the document
// through xmlsec's own parser, which SSOKit's callbacks do not see).
int ssokit_doc_exceeds(xmlDocPtr doc, const ssokit_parse_limits *limits) {
    xmlNodePtr root = doc == NULL ? NULL : xmlDocGetRootElement(doc);
    if (root == NULL || limits == NULL || limits->max_depth < 1) return 1;
    int in_scope = 0;
    int depth = 1;
    xmlNodePtr node = root;
    while (node != NULL) {
        int declarations = 0;
        int attributes = 0;
        if (node->type == XML_ELEMENT_NODE) {
            if (depth > limits->max_depth) return 1;
            for (xmlNsPtr ns = node->nsDef; ns != NULL; ns = ns->next) declarations++;
            for (xmlAttrPtr attribute = node->properties; attribute != NULL; attribute = attribute->next) {
                attributes++;
            }
            in_scope += declarations;
            if (attributes > limits->max_attributes || in_scope > limits->max_namespaces) return 1;
            if (node->children != NULL) {
                node = node->children;
                depth++;
                continue;
            }
            in_scope -= declarations;
        }
        // Up past every ancestor whose last child this was, taking their declarations out of scope.
        while (node != root && node->next == NULL) {
            node = node->parent;
            depth--;
            for (xmlNsPtr ns = node->nsDef; ns != NULL; ns = ns->next) in_scope--;
        }
        if (node == root) return 0;
        node = node->next;
    }
    return 0;
}

// The end of the construct that starts at `from` and ends with `terminator` (the index just past it), or `length`.
static int ssokit_skip_past(const char *bytes, int length, int from, const char *terminator) {
    size_t size = strlen(terminator);
    const char *found = memmem(bytes + from, (size_t)(length - from), terminator, size);
    return found == NULL ? length : (int)(found - bytes) + (int)size;
}

// Whether a start tag holds more than `most` '=' outside quoted values: more attributes and namespace declarations
// than the limits can allow. libxml2 checks a tag's attributes for duplicates pairwise before any callback sees
// the element (70,000 on one element: seconds), so this linear pass over the bytes refuses such a tag first.
// Comments, CDATA sections, processing instructions and declarations are skipped whole.
static int ssokit_some_tag_exceeds(const char *bytes, int length, const ssokit_parse_limits *limits) {
    long sum = (long)limits->max_attributes + (long)limits->max_namespaces;
    int most = sum > INT_MAX ? INT_MAX : (int)sum;
    int i = 0;
    while (i < length) {
        const char *open = memchr(bytes + i, '<', (size_t)(length - i));
        if (open == NULL) return 0;
        i = (int)(open - bytes) + 1;
        if (i < length && bytes[i] == '?') {
            i = ssokit_skip_past(bytes, length, i, "?>");
            continue;
        }
        if (i < length && bytes[i] == '!') {
            if (i + 2 < length && bytes[i + 1] == '-' && bytes[i + 2] == '-') {
                i = ssokit_skip_past(bytes, length, i + 3, "-->");
            } else if (length - i >= 8 && memcmp(bytes + i, "![CDATA[", 8) == 0) {
                i = ssokit_skip_past(bytes, length, i + 8, "]]>");
            } else {
                i = ssokit_skip_past(bytes, length, i, ">");
            }
            continue;
        }
        // Names and '=' byte by byte (they are short); a quoted value in one memchr (values are the bulk of a tag).
        int count = 0;
        while (i < length && bytes[i] != '>') {
            char c = bytes[i];
            if (c == '"' || c == '\'') {
                const char *close = memchr(bytes + i + 1, c, (size_t)(length - i - 1));
                if (close == NULL) return 0;  // unterminated: the parser refuses it
                i = (int)(close - bytes) + 1;
                continue;
            }
            if (c == '=' && ++count > most) return 1;
            i++;
        }
    }
    return 0;
}

xmlDocPtr ssokit_xml_parse(const char *bytes, int length, const ssokit_parse_limits *limits, ssokit_parse_status *status) {
    return ssokit_xml_parse_scanning(bytes, length, limits, NULL, status, NULL);
}

xmlDocPtr ssokit_xml_parse_scanning(const char *bytes, int length, const ssokit_parse_limits *limits,
                                    const char *assertion_namespace, ssokit_parse_status *status,
                                    ssokit_parse_scan *scan) {
    *status = SSOKIT_PARSE_MALFORMED;
    if (scan != NULL) memset(scan, 0, sizeof(*scan));
    if (ssokit_xmlsec_initialize() != 0 || bytes == NULL || length <= 0 || limits == NULL) return NULL;
    if (ssokit_some_tag_exceeds(bytes, length, limits)) {
        *status = SSOKIT_PARSE_TOO_COMPLEX;
        return NULL;
    }
    xmlParserCtxtPtr parser = xmlCreateMemoryParserCtxt(bytes, length);
    if (parser == NULL) return NULL;
    ssokit_parse_state state = {0};
    state.max_attributes = limits->max_attributes;
    state.max_namespaces = limits->max_namespaces;
    if (scan != NULL && assertion_namespace != NULL) {
        scan->complete = 1;
        state.assertion_namespace = assertion_namespace;
        state.scan = scan;
    }
    parser->_private = &state;
    parser->sax->internalSubset = ssokit_refuse_subset;
    parser->sax->externalSubset = ssokit_refuse_subset;
    parser->sax->entityDecl = ssokit_refuse_entity;
    parser->sax->serror = ssokit_stop_at_fatal_error;
    parser->sax->startElementNs = ssokit_start_element;
    parser->sax->endElementNs = ssokit_end_element;
    xmlCtxtUseOptions(parser, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    // IDs are registered by SSOKit alone (ssokit_note_element here, ssokit_register_ids later), with their values as
    // read. Left to itself, libxml2 registers every xml:id too, keyed by the value as written (`a&#38;b` for
    // `a&amp;b`), so the table would hold a key that SSOKit never vetted, and which outlives its element when xmlsec
    // frees a subtree (freeing removes only the decoded key).
    parser->loadsubset |= XML_SKIP_IDS;
    xmlParseDocument(parser);
    xmlDocPtr doc = parser->myDoc;
    parser->myDoc = NULL;
    int well_formed = parser->wellFormed;
    xmlFreeParserCtxt(parser);
    if (state.saw_doctype || (doc != NULL && doc->intSubset != NULL)) {
        if (doc != NULL) xmlFreeDoc(doc);
        *status = SSOKIT_PARSE_DOCTYPE;
        return NULL;
    }
    if (state.too_complex) {
        if (doc != NULL) xmlFreeDoc(doc);
        *status = SSOKIT_PARSE_TOO_COMPLEX;
        return NULL;
    }
    if (doc == NULL || !well_formed || xmlDocGetRootElement(doc) == NULL) {
        if (doc != NULL) xmlFreeDoc(doc);
        return NULL;
    }
    if (state.deepest > limits->max_depth) {
        xmlFreeDoc(doc);
        *status = SSOKIT_PARSE_TOO_DEEP;
        return NULL;
    }
    *status = SSOKIT_PARSE_OK;
    return doc;
}

// MARK: - Keys

static ssokit_key *ssokit_wrap_key(xmlSecKeyPtr key) {
    if (key == NULL) return NULL;
    ssokit_key *wrapper = calloc(1, sizeof(ssokit_key));
    if (wrapper == NULL) {
        xmlSecKeyDestroy(key);
        return NULL;
    }
    wrapper->key = key;
    return wrapper;
}

ssokit_key *ssokit_key_public_from_certificate(const unsigned char *data, size_t length, int is_pem) {
    if (ssokit_xmlsec_initialize() != 0 || data == NULL || length == 0 || length > (1 << 20)) return NULL;
    BIO *bio = BIO_new_mem_buf(data, (int)length);
    if (bio == NULL) return NULL;
    X509 *certificate = is_pem ? PEM_read_bio_X509(bio, NULL, NULL, NULL) : d2i_X509_bio(bio, NULL);
    BIO_free(bio);
    if (certificate == NULL) return NULL;
    EVP_PKEY *public_key = X509_get_pubkey(certificate);
    X509_free(certificate);
    if (public_key == NULL) return NULL;
    xmlSecKeyDataPtr value = xmlSecOpenSSLEvpKeyAdopt(public_key);
    if (value == NULL) {
        EVP_PKEY_free(public_key);
        return NULL;
    }
    xmlSecKeyPtr key = xmlSecKeyCreate();
    if (key == NULL) {
        xmlSecKeyDataDestroy(value);
        return NULL;
    }
    if (xmlSecKeySetValue(key, value) < 0) {
        xmlSecKeyDataDestroy(value);
        xmlSecKeyDestroy(key);
        return NULL;
    }
    return ssokit_wrap_key(key);
}

ssokit_key *ssokit_key_private_from_pem(
    const unsigned char *key_pem, size_t key_length, const unsigned char *cert_pem, size_t cert_length) {
    if (ssokit_xmlsec_initialize() != 0 || key_pem == NULL || key_length == 0 || key_length > (1 << 20)) return NULL;
    xmlSecKeyPtr key = xmlSecOpenSSLAppKeyLoadMemory(
        key_pem, (xmlSecSize)key_length, xmlSecKeyDataFormatPem, NULL, NULL, NULL);
    if (key == NULL) return NULL;
    if (cert_pem != NULL && cert_length > 0) {
        if (cert_length > (1 << 20) ||
            xmlSecOpenSSLAppKeyCertLoadMemory(key, cert_pem, (xmlSecSize)cert_length, xmlSecKeyDataFormatPem) < 0) {
            xmlSecKeyDestroy(key);
            return NULL;
        }
    }
    return ssokit_wrap_key(key);
}

void ssokit_key_free(ssokit_key *key) {
    if (key == NULL) return;
    if (key->key != NULL) xmlSecKeyDestroy(key->key);
    free(key);
}

// MARK: - No URI is ever read

// Every xmlsec context starts out allowing any URI (xmlSecTransformUriTypeAny): a CipherReference or a
// RetrievalMethod would make it read a local file or fetch a URL before any signature is checked. SSOKit reads
// only the message it was given, so each context is narrowed right after it is created.
static void ssokit_key_info_reads_no_uri(xmlSecKeyInfoCtxPtr ctx) {
    ctx->retrievalMethodCtx.enabledUris = xmlSecTransformUriTypeNone;
    ctx->maxRetrievalMethodLevel = 0;
    ctx->maxEncryptedKeyLevel = 0;
}

// Encryption: CipherValue only; a CipherReference of any kind (same-document included) is refused.
static void ssokit_enc_reads_no_uri(xmlSecEncCtxPtr ctx) {
    ctx->transformCtx.enabledUris = xmlSecTransformUriTypeNone;
    ssokit_key_info_reads_no_uri(&(ctx->keyInfoReadCtx));
    ssokit_key_info_reads_no_uri(&(ctx->keyInfoWriteCtx));
}

// Signatures: references within the document only (`#id`); nothing else reads a URI.
static void ssokit_dsig_reads_no_uri(xmlSecDSigCtxPtr ctx) {
    ctx->transformCtx.enabledUris = xmlSecTransformUriTypeNone;
    ctx->enabledReferenceUris = xmlSecTransformUriTypeSameDocument;
    ssokit_key_info_reads_no_uri(&(ctx->keyInfoReadCtx));
    ssokit_key_info_reads_no_uri(&(ctx->keyInfoWriteCtx));
}

// MARK: - Signatures

static int ssokit_enable_verification_transforms(xmlSecDSigCtxPtr ctx, int allow_sha1) {
    xmlSecTransformId reference[] = {
        xmlSecTransformExclC14NId, xmlSecTransformEnvelopedId, xmlSecTransformSha256Id,
        xmlSecTransformSha384Id, xmlSecTransformSha512Id,
    };
    xmlSecTransformId signature[] = {
        xmlSecTransformExclC14NId, xmlSecTransformRsaSha256Id, xmlSecTransformRsaSha384Id,
        xmlSecTransformRsaSha512Id, xmlSecTransformEcdsaSha256Id, xmlSecTransformEcdsaSha384Id,
        xmlSecTransformEcdsaSha512Id,
    };
    for (size_t i = 0; i < sizeof(reference) / sizeof(reference[0]); i++) {
        if (xmlSecDSigCtxEnableReferenceTransform(ctx, reference[i]) < 0) return -1;
    }
    for (size_t i = 0; i < sizeof(signature) / sizeof(signature[0]); i++) {
        if (xmlSecDSigCtxEnableSignatureTransform(ctx, signature[i]) < 0) return -1;
    }
    if (allow_sha1) {
        if (xmlSecDSigCtxEnableReferenceTransform(ctx, xmlSecTransformSha1Id) < 0) return -1;
        if (xmlSecDSigCtxEnableSignatureTransform(ctx, xmlSecTransformRsaSha1Id) < 0) return -1;
        if (xmlSecDSigCtxEnableSignatureTransform(ctx, xmlSecTransformEcdsaSha1Id) < 0) return -1;
    }
    ssokit_dsig_reads_no_uri(ctx);
    return 0;
}

// Whether every ds:Reference of the signature's SignedInfo has a URI, read as xmlsec reads it (xmlGetProp: the first
// attribute named URI, in any namespace), that begins with '#' and holds no '(' and no white space: a bare-name
// fragment, which the flags below resolve as one ID lookup. Checked before xmlsec does any work, so that no
// XPointer expression is ever evaluated.
static int ssokit_references_are_bare_names(xmlNodePtr signature) {
    xmlNodePtr signed_info = xmlSecFindChild(signature, xmlSecNodeSignedInfo, xmlSecDSigNs);
    if (signed_info == NULL) return 0;
    for (xmlNodePtr child = signed_info->children; child != NULL; child = child->next) {
        if (!xmlSecCheckNodeName(child, xmlSecNodeReference, xmlSecDSigNs)) continue;
        xmlChar *uri = xmlGetProp(child, xmlSecAttrURI);
        int bare = uri != NULL && uri[0] == '#' && strpbrk((const char *)uri, "( \t\r\n") == NULL;
        if (uri != NULL) xmlFree(uri);
        if (!bare) return 0;
    }
    return 1;
}

ssokit_dsig_status ssokit_dsig_verify(
    xmlNodePtr signature, const ssokit_key *key, int allow_sha1, char *reference_uri, size_t reference_uri_capacity,
    int *reference_count) {
    if (reference_count != NULL) *reference_count = 0;
    if (reference_uri != NULL && reference_uri_capacity > 0) reference_uri[0] = '\0';
    if (ssokit_xmlsec_initialize() != 0 || signature == NULL || key == NULL || key->key == NULL) {
        return SSOKIT_DSIG_ERROR;
    }
    xmlSecDSigCtxPtr ctx = xmlSecDSigCtxCreate(NULL);
    if (ctx == NULL) return SSOKIT_DSIG_ERROR;
    // Manifests: xmlsec digests every Reference of a ds:Manifest inside a ds:Object, before the signature value is
    // checked and whatever its outcome. An Object is not covered by the signature, so anyone could append thousands
    // of References to the whole document (each one a full canonicalisation) to any Response. SAML signs one
    // element through SignedInfo's one Reference; nothing SSOKit accepts depends on a Manifest, so none is read.
    ctx->flags |= XMLSEC_DSIG_FLAGS_IGNORE_MANIFESTS;
    // The Reference: callers pass only a signature whose one URI is '#' + an ID without '(' or white space, and the
    // document's IDs are unique. xmlsec would evaluate such a fragment as the XPointer `xpointer(id('...'))` (a
    // fresh XPath context with every function registered, then the expression compiled and run); this flag makes
    // it one lookup of exactly that ID in the document's ID table (xmlGetID), which is what `id()` consults too,
    // and the same node set (the element and its descendants, comments excluded). The name is xmlsec's: it was
    // added for Visa 3-D Secure, whose IDs are not valid XPointer expressions. Fragments that begin with
    // `xpointer(` or `xmlns(` would still go through XPointer: ssokit_references_are_bare_names refuses them first.
    ctx->flags |= XMLSEC_DSIG_FLAGS_USE_VISA3D_HACK;
    ssokit_dsig_status result = SSOKIT_DSIG_ERROR;
    if (ssokit_enable_verification_transforms(ctx, allow_sha1) < 0) goto done;
    if (!ssokit_references_are_bare_names(signature)) goto done;
    ctx->signKey = xmlSecKeyDuplicate(key->key);
    if (ctx->signKey == NULL) goto done;
    if (xmlSecDSigCtxVerify(ctx, signature) < 0) goto done;
    if (ctx->status != xmlSecDSigStatusSucceeded) {
        result = SSOKIT_DSIG_INVALID;
        goto done;
    }
    xmlSecSize count = xmlSecPtrListGetSize(&(ctx->signedInfoReferences));
    if (reference_count != NULL) *reference_count = (int)count;
    if (count >= 1 && reference_uri != NULL && reference_uri_capacity > 0) {
        xmlSecDSigReferenceCtxPtr reference =
            (xmlSecDSigReferenceCtxPtr)xmlSecPtrListGetItem(&(ctx->signedInfoReferences), 0);
        if (reference == NULL || reference->uri == NULL) goto done;
        size_t length = strlen((const char *)reference->uri);
        if (length + 1 > reference_uri_capacity) goto done;
        memcpy(reference_uri, reference->uri, length + 1);
    }
    result = SSOKIT_DSIG_VALID;
done:
    xmlSecDSigCtxDestroy(ctx);
    return result;
}

int ssokit_dsig_sign_enveloped(
    xmlNodePtr element, const char *id, xmlNodePtr after, const ssokit_key *key, ssokit_sign_algorithm algorithm) {
    if (ssokit_xmlsec_initialize() != 0 || element == NULL || id == NULL || key == NULL || key->key == NULL) return -1;
    xmlSecTransformId method;
    switch (algorithm) {
    case SSOKIT_SIGN_RSA_SHA256: method = xmlSecTransformRsaSha256Id; break;
    case SSOKIT_SIGN_RSA_SHA384: method = xmlSecTransformRsaSha384Id; break;
    case SSOKIT_SIGN_RSA_SHA512: method = xmlSecTransformRsaSha512Id; break;
    case SSOKIT_SIGN_ECDSA_SHA256: method = xmlSecTransformEcdsaSha256Id; break;
    case SSOKIT_SIGN_ECDSA_SHA384: method = xmlSecTransformEcdsaSha384Id; break;
    case SSOKIT_SIGN_ECDSA_SHA512: method = xmlSecTransformEcdsaSha512Id; break;
    default: return -1;
    }
    size_t id_length = strlen(id);
    if (id_length == 0 || id_length > 1024) return -1;
    char uri[1030];
    uri[0] = '#';
    memcpy(uri + 1, id, id_length + 1);

    xmlNodePtr template = xmlSecTmplSignatureCreate(element->doc, xmlSecTransformExclC14NId, method, NULL);
    if (template == NULL) return -1;
    if (after != NULL) {
        if (xmlAddNextSibling(after, template) == NULL) goto fail;
    } else if (element->children != NULL) {
        if (xmlAddPrevSibling(element->children, template) == NULL) goto fail;
    } else if (xmlAddChild(element, template) == NULL) {
        goto fail;
    }
    xmlNodePtr reference =
        xmlSecTmplSignatureAddReference(template, xmlSecTransformSha256Id, NULL, (const xmlChar *)uri, NULL);
    if (reference == NULL) goto unlink;
    if (xmlSecTmplReferenceAddTransform(reference, xmlSecTransformEnvelopedId) == NULL) goto unlink;
    if (xmlSecTmplReferenceAddTransform(reference, xmlSecTransformExclC14NId) == NULL) goto unlink;
    if (xmlSecKeyGetData(key->key, xmlSecOpenSSLKeyDataX509Id) != NULL) {
        xmlNodePtr key_info = xmlSecTmplSignatureEnsureKeyInfo(template, NULL);
        if (key_info == NULL || xmlSecTmplKeyInfoAddX509Data(key_info) == NULL) goto unlink;
    }
    xmlSecDSigCtxPtr ctx = xmlSecDSigCtxCreate(NULL);
    if (ctx == NULL) goto unlink;
    ssokit_dsig_reads_no_uri(ctx);
    ctx->signKey = xmlSecKeyDuplicate(key->key);
    int rc = (ctx->signKey == NULL) ? -1 : xmlSecDSigCtxSign(ctx, template);
    xmlSecDSigCtxDestroy(ctx);
    if (rc < 0) goto unlink;
    return 0;
unlink:
    xmlUnlinkNode(template);
fail:
    xmlFreeNode(template);
    return -1;
}

// MARK: - Encryption

int ssokit_xmlenc_decrypt(
    xmlNodePtr encrypted_data, xmlNodePtr encrypted_key, const ssokit_key *key, const ssokit_parse_limits *limits) {
    if (ssokit_xmlsec_initialize() != 0 || encrypted_data == NULL || encrypted_key == NULL || key == NULL ||
        key->key == NULL || limits == NULL) {
        return 1;
    }
    // One outcome for every failure, key transport and content alike: callers must not be able to tell them
    // apart (an oracle on either step helps decrypt or forge ciphertexts).
    int result = 1;
    xmlSecKeyPtr session_key = NULL;
    xmlSecEncCtxPtr data_ctx = NULL;
    xmlSecEncCtxPtr key_ctx = xmlSecEncCtxCreate(NULL);
    if (key_ctx == NULL) return 1;
    ssokit_enc_reads_no_uri(key_ctx);
    if (xmlSecPtrListAdd(&(key_ctx->transformCtx.enabledTransforms), (void *)xmlSecTransformRsaOaepId) < 0) {
        goto done;
    }
    key_ctx->mode = xmlEncCtxModeEncryptedKey;
    key_ctx->encKey = xmlSecKeyDuplicate(key->key);
    if (key_ctx->encKey == NULL) goto done;
    xmlSecBufferPtr session = xmlSecEncCtxDecryptToBuffer(key_ctx, encrypted_key);
    if (session == NULL) goto done;
    session_key = xmlSecKeyReadMemory(
        xmlSecOpenSSLKeyDataAesId, xmlSecBufferGetData(session), xmlSecBufferGetSize(session));
    if (session_key == NULL) goto done;

    data_ctx = xmlSecEncCtxCreate(NULL);
    if (data_ctx == NULL) goto done;
    ssokit_enc_reads_no_uri(data_ctx);
    xmlSecTransformId content[] = {
        xmlSecTransformAes128CbcId, xmlSecTransformAes192CbcId, xmlSecTransformAes256CbcId,
        xmlSecTransformAes128GcmId, xmlSecTransformAes192GcmId, xmlSecTransformAes256GcmId,
    };
    for (size_t i = 0; i < sizeof(content) / sizeof(content[0]); i++) {
        if (xmlSecPtrListAdd(&(data_ctx->transformCtx.enabledTransforms), (void *)content[i]) < 0) goto done;
    }
    data_ctx->encKey = session_key;
    session_key = NULL;
    // xmlSecEncCtxDecrypt's two steps, with the byte pass between them: the plaintext joins the document through
    // xmlsec's parser, which SSOKit's parse callbacks do not see, and anyone can encrypt to the SP's certificate.
    xmlSecBufferPtr plaintext = xmlSecEncCtxDecryptToBuffer(data_ctx, encrypted_data);
    if (plaintext == NULL) goto done;
    const xmlChar *type = data_ctx->type;
    if (type == NULL || !(xmlStrEqual(type, xmlSecTypeEncElement) || xmlStrEqual(type, xmlSecTypeEncContent))) goto done;
    xmlSecSize size = xmlSecBufferGetSize(plaintext);
    if (size > INT_MAX || ssokit_some_tag_exceeds((const char *)xmlSecBufferGetData(plaintext), (int)size, limits)) {
        goto done;
    }
    if (xmlSecReplaceNodeBuffer(encrypted_data, xmlSecBufferGetData(plaintext), size) == 0) result = 0;
done:
    if (data_ctx != NULL) xmlSecEncCtxDestroy(data_ctx);
    if (session_key != NULL) xmlSecKeyDestroy(session_key);
    xmlSecEncCtxDestroy(key_ctx);
    return result;
}

int ssokit_xmlenc_encrypt(xmlNodePtr element, const ssokit_key *recipient) {
    if (ssokit_xmlsec_initialize() != 0 || element == NULL || element->doc == NULL || recipient == NULL ||
        recipient->key == NULL) {
        return -1;
    }
    int result = -1;
    xmlSecKeysMngrPtr manager = NULL;
    xmlSecEncCtxPtr ctx = NULL;
    xmlNodePtr template = xmlSecTmplEncDataCreate(
        element->doc, xmlSecTransformAes256GcmId, NULL, xmlSecTypeEncElement, NULL, NULL);
    if (template == NULL) return -1;
    if (xmlSecTmplEncDataEnsureCipherValue(template) == NULL) goto done;
    xmlNodePtr key_info = xmlSecTmplEncDataEnsureKeyInfo(template, NULL);
    if (key_info == NULL) goto done;
    xmlNodePtr encrypted_key = xmlSecTmplKeyInfoAddEncryptedKey(key_info, xmlSecTransformRsaOaepId, NULL, NULL, NULL);
    if (encrypted_key == NULL || xmlSecTmplEncDataEnsureCipherValue(encrypted_key) == NULL) goto done;
    // The keys manager holds only the recipient's public key, in a plain keys store (no X509 store, whose default
    // paths would load the system's CA bundle on every call): xmlsec finds it there to wrap the session key.
    manager = xmlSecKeysMngrCreate();
    if (manager == NULL) goto done;
    xmlSecKeyStorePtr store = xmlSecKeyStoreCreate(xmlSecSimpleKeysStoreId);
    if (store == NULL) goto done;
    if (xmlSecKeysMngrAdoptKeysStore(manager, store) < 0) {
        xmlSecKeyStoreDestroy(store);
        goto done;
    }
    manager->getKey = xmlSecKeysMngrGetKey;
    xmlSecKeyPtr transport_key = xmlSecKeyDuplicate(recipient->key);
    if (transport_key == NULL) goto done;
    if (xmlSecSimpleKeysStoreAdoptKey(store, transport_key) < 0) {
        xmlSecKeyDestroy(transport_key);
        goto done;
    }
    ctx = xmlSecEncCtxCreate(manager);
    if (ctx == NULL) goto done;
    ctx->encKey = xmlSecKeyGenerate(xmlSecOpenSSLKeyDataAesId, 256, xmlSecKeyDataTypeSession);
    if (ctx->encKey == NULL) goto done;
    if (xmlSecEncCtxXmlEncrypt(ctx, template, element) < 0) goto done;
    // The template now stands where the element was; the context frees the replaced element.
    template = NULL;
    result = 0;
done:
    if (ctx != NULL) xmlSecEncCtxDestroy(ctx);
    if (manager != NULL) xmlSecKeysMngrDestroy(manager);
    if (template != NULL) xmlFreeNode(template);
    return result;
}

xmlNodePtr ssokit_node_wrap(xmlNodePtr element, const char *namespace_uri, const char *prefix, const char *local_name) {
    if (element == NULL || element->doc == NULL || namespace_uri == NULL || local_name == NULL) return NULL;
    xmlNodePtr wrapper = xmlNewDocNode(element->doc, NULL, BAD_CAST local_name, NULL);
    if (wrapper == NULL) return NULL;
    xmlNsPtr ns = xmlNewNs(wrapper, BAD_CAST namespace_uri, BAD_CAST prefix);
    if (ns == NULL) {
        xmlFreeNode(wrapper);
        return NULL;
    }
    xmlSetNs(wrapper, ns);
    if (element->parent == NULL || xmlReplaceNode(element, wrapper) == NULL) {
        xmlFreeNode(wrapper);
        return NULL;
    }
    // xmlAddChild only fails on NULL arguments or text merging, neither possible for two elements.
    return xmlAddChild(wrapper, element) == NULL ? NULL : wrapper;
}

// MARK: - DEFLATE

int ssokit_deflate_raw(const unsigned char *input, size_t length, unsigned char **output, size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    if (length > (64u << 20)) return -1;
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -1;
    uLong bound = deflateBound(&stream, (uLong)length);
    unsigned char *buffer = malloc(bound + 1);
    if (buffer == NULL) {
        deflateEnd(&stream);
        return -1;
    }
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = buffer;
    stream.avail_out = (uInt)bound;
    int rc = deflate(&stream, Z_FINISH);
    if (rc != Z_STREAM_END) {
        deflateEnd(&stream);
        free(buffer);
        return -1;
    }
    *output_length = stream.total_out;
    deflateEnd(&stream);
    *output = buffer;
    return 0;
}

int ssokit_inflate_raw(
    const unsigned char *input, size_t length, size_t max_output, unsigned char **output, size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    if (length == 0 || length > (64u << 20) || max_output == 0 || max_output > (256u << 20)) return 2;
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (inflateInit2(&stream, -15) != Z_OK) return 2;
    size_t capacity = length * 4 < 4096 ? 4096 : length * 4;
    if (capacity > max_output + 1) capacity = max_output + 1;
    unsigned char *buffer = malloc(capacity);
    if (buffer == NULL) {
        inflateEnd(&stream);
        return 2;
    }
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    int rc = Z_OK;
    size_t produced = 0;
    // Each round either finishes, fails, or produces output; the cap bounds the rounds.
    while (rc != Z_STREAM_END) {
        if (produced == capacity) {
            if (capacity > max_output) {
                inflateEnd(&stream);
                free(buffer);
                return 1;
            }
            size_t grown = capacity * 2;
            if (grown > max_output + 1) grown = max_output + 1;
            unsigned char *larger = realloc(buffer, grown);
            if (larger == NULL) {
                inflateEnd(&stream);
                free(buffer);
                return 2;
            }
            buffer = larger;
            capacity = grown;
        }
        stream.next_out = buffer + produced;
        stream.avail_out = (uInt)(capacity - produced);
        rc = inflate(&stream, Z_NO_FLUSH);
        produced = capacity - stream.avail_out;
        if (rc == Z_STREAM_END) break;
        if (rc != Z_OK) {
            inflateEnd(&stream);
            free(buffer);
            return 2;
        }
        if (stream.avail_in == 0 && produced < capacity) {
            // Input exhausted without the final block.
            inflateEnd(&stream);
            free(buffer);
            return 2;
        }
    }
    inflateEnd(&stream);
    if (produced > max_output) {
        free(buffer);
        return 1;
    }
    *output = buffer;
    *output_length = produced;
    return 0;
}

// MARK: - Serialisation

int ssokit_xml_serialize(xmlDocPtr doc, unsigned char **output, size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    if (doc == NULL) return -1;
    xmlChar *memory = NULL;
    int size = 0;
    xmlDocDumpMemoryEnc(doc, &memory, &size, "UTF-8");
    if (memory == NULL || size < 0) return -1;
    unsigned char *copy = malloc((size_t)size + 1);
    if (copy == NULL) {
        xmlFree(memory);
        return -1;
    }
    memcpy(copy, memory, (size_t)size);
    copy[size] = 0;
    xmlFree(memory);
    *output = copy;
    *output_length = (size_t)size;
    return 0;
}

// MARK: - Raw signatures (the HTTP-Redirect binding signs the query string, not XML)

#include <openssl/bn.h>
#include <openssl/ecdsa.h>

static EVP_PKEY *ssokit_evp(const ssokit_key *key) {
    if (key == NULL || key->key == NULL) return NULL;
    xmlSecKeyDataPtr value = xmlSecKeyGetValue(key->key);
    if (value == NULL) return NULL;
    return xmlSecOpenSSLEvpKeyDataGetEvp(value);
}

int ssokit_key_type(const ssokit_key *key) {
    EVP_PKEY *pkey = ssokit_evp(key);
    if (pkey == NULL) return 0;
    switch (EVP_PKEY_get_base_id(pkey)) {
    case EVP_PKEY_RSA: return 1;
    case EVP_PKEY_EC: return 2;
    default: return 0;
    }
}

static const EVP_MD *ssokit_digest(int bits) {
    switch (bits) {
    case 1: return EVP_sha1();
    case 256: return EVP_sha256();
    case 384: return EVP_sha384();
    case 512: return EVP_sha512();
    default: return NULL;
    }
}

static int ssokit_ec_field_bytes(EVP_PKEY *pkey) {
    int bits = EVP_PKEY_get_bits(pkey);
    return bits <= 0 ? 0 : (bits + 7) / 8;
}

int ssokit_raw_sign(const ssokit_key *key, int digest_bits, const unsigned char *data, size_t length,
    unsigned char **signature, size_t *signature_length) {
    *signature = NULL;
    *signature_length = 0;
    EVP_PKEY *pkey = ssokit_evp(key);
    const EVP_MD *md = ssokit_digest(digest_bits);
    if (pkey == NULL || md == NULL) return -1;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return -1;
    int result = -1;
    size_t der_length = 0;
    unsigned char *der = NULL;
    if (EVP_DigestSignInit(ctx, NULL, md, NULL, pkey) != 1) goto done;
    if (EVP_DigestSign(ctx, NULL, &der_length, data, length) != 1) goto done;
    der = malloc(der_length);
    if (der == NULL) goto done;
    if (EVP_DigestSign(ctx, der, &der_length, data, length) != 1) goto done;
    if (EVP_PKEY_get_base_id(pkey) == EVP_PKEY_EC) {
        int field = ssokit_ec_field_bytes(pkey);
        const unsigned char *cursor = der;
        ECDSA_SIG *parsed = d2i_ECDSA_SIG(NULL, &cursor, (long)der_length);
        if (parsed == NULL || field <= 0) {
            ECDSA_SIG_free(parsed);
            goto done;
        }
        unsigned char *raw = malloc((size_t)field * 2);
        if (raw == NULL || BN_bn2binpad(ECDSA_SIG_get0_r(parsed), raw, field) != field ||
            BN_bn2binpad(ECDSA_SIG_get0_s(parsed), raw + field, field) != field) {
            free(raw);
            ECDSA_SIG_free(parsed);
            goto done;
        }
        ECDSA_SIG_free(parsed);
        *signature = raw;
        *signature_length = (size_t)field * 2;
    } else {
        *signature = der;
        *signature_length = der_length;
        der = NULL;
    }
    result = 0;
done:
    free(der);
    EVP_MD_CTX_free(ctx);
    return result;
}

int ssokit_raw_verify(const ssokit_key *key, int digest_bits, const unsigned char *data, size_t length,
    const unsigned char *signature, size_t signature_length) {
    EVP_PKEY *pkey = ssokit_evp(key);
    const EVP_MD *md = ssokit_digest(digest_bits);
    if (pkey == NULL || md == NULL || signature == NULL || signature_length == 0 || signature_length > 8192) return 2;
    unsigned char *der = NULL;
    size_t der_length = signature_length;
    const unsigned char *checked = signature;
    if (EVP_PKEY_get_base_id(pkey) == EVP_PKEY_EC) {
        int field = ssokit_ec_field_bytes(pkey);
        if (field <= 0 || signature_length != (size_t)field * 2) return 1;
        ECDSA_SIG *parsed = ECDSA_SIG_new();
        BIGNUM *r = BN_bin2bn(signature, field, NULL);
        BIGNUM *s = BN_bin2bn(signature + field, field, NULL);
        if (parsed == NULL || r == NULL || s == NULL || ECDSA_SIG_set0(parsed, r, s) != 1) {
            BN_free(r);
            BN_free(s);
            ECDSA_SIG_free(parsed);
            return 2;
        }
        int encoded = i2d_ECDSA_SIG(parsed, &der);
        ECDSA_SIG_free(parsed);
        if (encoded <= 0) return 2;
        der_length = (size_t)encoded;
        checked = der;
    }
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int result = 2;
    if (ctx != NULL && EVP_DigestVerifyInit(ctx, NULL, md, NULL, pkey) == 1) {
        int rc = EVP_DigestVerify(ctx, checked, der_length, data, length);
        result = rc == 1 ? 0 : 1;
    }
    EVP_MD_CTX_free(ctx);
    OPENSSL_free(der);
    return result;
}

// MARK: - Tree access

void ssokit_doc_free(xmlDocPtr doc) {
    if (doc != NULL) xmlFreeDoc(doc);
}

xmlNodePtr ssokit_doc_root(xmlDocPtr doc) { return doc == NULL ? NULL : xmlDocGetRootElement(doc); }

int ssokit_node_type(xmlNodePtr node) { return node == NULL ? 0 : (int)node->type; }

const char *ssokit_node_name(xmlNodePtr node) {
    return (node == NULL || node->name == NULL) ? "" : (const char *)node->name;
}

const char *ssokit_node_namespace(xmlNodePtr node) {
    if (node == NULL || node->type != XML_ELEMENT_NODE || node->ns == NULL) return NULL;
    return (const char *)node->ns->href;
}

const char *ssokit_node_text(xmlNodePtr node) {
    if (node == NULL || (node->type != XML_TEXT_NODE && node->type != XML_CDATA_SECTION_NODE)) return NULL;
    return (const char *)node->content;
}

xmlNodePtr ssokit_node_first_child(xmlNodePtr node) {
    if (node == NULL || node->type != XML_ELEMENT_NODE) return NULL;
    return node->children;
}

xmlNodePtr ssokit_node_next(xmlNodePtr node) { return node == NULL ? NULL : node->next; }

xmlNodePtr ssokit_node_parent(xmlNodePtr node) { return node == NULL ? NULL : node->parent; }

char *ssokit_node_attribute(xmlNodePtr node, const char *name) {
    if (node == NULL || node->type != XML_ELEMENT_NODE || name == NULL) return NULL;
    return (char *)xmlGetNoNsProp(node, (const xmlChar *)name);
}

void ssokit_free(void *pointer) {
    if (pointer != NULL) xmlFree(pointer);
}

static int ssokit_register_attribute(xmlDocPtr doc, xmlAttrPtr attribute) {
    // A value that is one text node is read in place (xmlAddID keeps its own copy); anything else is assembled.
    xmlNodePtr only = attribute->children;
    int in_place = only != NULL && only->next == NULL && only->type == XML_TEXT_NODE && only->content != NULL;
    xmlChar *assembled = in_place ? NULL : xmlNodeListGetString(doc, attribute->children, 1);
    const xmlChar *value = in_place ? only->content : assembled;
    if (value == NULL) return 0;
    int result = 0;
    xmlAttrPtr existing = xmlGetID(doc, value);
    if (existing != NULL && existing != attribute) {
        result = -1;
    } else if (existing == NULL && xmlAddID(NULL, doc, value, attribute) == NULL) {
        result = -1;
    }
    if (assembled != NULL) xmlFree(assembled);
    return result;
}

int ssokit_register_ids(xmlDocPtr doc, xmlNodePtr root) {
    int count = 0;
    int misplaced = 0;
    xmlNodePtr first = NULL;
    return ssokit_scan_document(doc, root, NULL, &count, &first, &misplaced);
}

int ssokit_scan_document(
    xmlDocPtr doc, xmlNodePtr root, const char *assertion_namespace, int *count, xmlNodePtr *first, int *misplaced) {
    *count = 0;
    *first = NULL;
    *misplaced = 0;
    if (doc == NULL || root == NULL) return -1;
    xmlNodePtr node = root;
    while (node != NULL) {
        if (node->type == XML_ELEMENT_NODE) {
            if (assertion_namespace != NULL && node != root && node->ns != NULL &&
                (xmlStrEqual(node->name, BAD_CAST "Assertion") ||
                 xmlStrEqual(node->name, BAD_CAST "EncryptedAssertion")) &&
                xmlStrEqual(node->ns->href, BAD_CAST assertion_namespace)) {
                if (*count == 0) *first = node;
                *count += 1;
                if (node->parent != root) *misplaced = 1;
            }
            for (xmlAttrPtr attribute = node->properties; attribute != NULL; attribute = attribute->next) {
                int is_saml_id = attribute->ns == NULL && xmlStrEqual(attribute->name, BAD_CAST "ID");
                int is_xml_id = attribute->ns != NULL && xmlStrEqual(attribute->name, BAD_CAST "id") &&
                                xmlStrEqual(attribute->ns->href, XML_XML_NAMESPACE);
                if ((is_saml_id || is_xml_id) && ssokit_register_attribute(doc, attribute) < 0) return -1;
            }
            if (node->children != NULL) {
                node = node->children;
                continue;
            }
        }
        while (node != NULL && node != root && node->next == NULL) node = node->parent;
        if (node == NULL || node == root) break;
        node = node->next;
    }
    return 0;
}

int ssokit_node_attribute_borrowed(xmlNodePtr node, const char *name, const char **value) {
    *value = NULL;
    if (node == NULL || node->type != XML_ELEMENT_NODE || name == NULL) return 0;
    for (xmlAttrPtr attribute = node->properties; attribute != NULL; attribute = attribute->next) {
        if (attribute->ns != NULL || !xmlStrEqual(attribute->name, BAD_CAST name)) continue;
        xmlNodePtr child = attribute->children;
        if (child == NULL) {
            *value = "";
            return 1;
        }
        if (child->type == XML_TEXT_NODE && child->next == NULL && child->content != NULL) {
            *value = (const char *)child->content;
            return 1;
        }
        return 2;
    }
    return 0;
}


// The name first: SAML's namespace URIs share their first 28 bytes, local names rarely share their first one.
static int ssokit_is_element_named(xmlNodePtr node, const char *local_name, const char *namespace_uri) {
    return node->type == XML_ELEMENT_NODE && node->ns != NULL && node->name != NULL && node->ns->href != NULL &&
           strcmp((const char *)node->name, local_name) == 0 &&
           strcmp((const char *)node->ns->href, namespace_uri) == 0;
}

xmlNodePtr ssokit_node_child_named(xmlNodePtr node, xmlNodePtr from, const char *local_name, const char *namespace_uri) {
    if (node == NULL || node->type != XML_ELEMENT_NODE || local_name == NULL || namespace_uri == NULL) return NULL;
    for (xmlNodePtr child = from == NULL ? node->children : from; child != NULL; child = child->next) {
        if (ssokit_is_element_named(child, local_name, namespace_uri)) return child;
    }
    return NULL;
}

int ssokit_node_has_namespaced_attribute(xmlNodePtr node) {
    if (node == NULL || node->type != XML_ELEMENT_NODE) return 0;
    xmlNodePtr current = node;
    while (current != NULL) {
        if (current->type == XML_ELEMENT_NODE) {
            for (xmlAttrPtr attribute = current->properties; attribute != NULL; attribute = attribute->next) {
                if (attribute->ns != NULL) return 1;
            }
            if (current->children != NULL) {
                current = current->children;
                continue;
            }
        }
        while (current != node && current->next == NULL) current = current->parent;
        if (current == node) return 0;
        current = current->next;
    }
    return 0;
}

int ssokit_node_count_children_named(
    xmlNodePtr node, const char *local_name, const char *namespace_uri, xmlNodePtr *first) {
    *first = NULL;
    if (node == NULL || node->type != XML_ELEMENT_NODE || local_name == NULL || namespace_uri == NULL) return 0;
    int count = 0;
    for (xmlNodePtr child = node->children; child != NULL; child = child->next) {
        if (!ssokit_is_element_named(child, local_name, namespace_uri)) continue;
        if (count == 0) *first = child;
        count++;
    }
    return count;
}
