#ifndef SSOKIT_CXMLSEC_H
#define SSOKIT_CXMLSEC_H

// A small C surface over libxml2 + xmlsec1-openssl for SSOKitSAML. xmlsec's own headers stay private to
// cxmlsec.c (they need defines that only this target sets); Swift sees opaque keys and plain status codes.

#include <stddef.h>

// libxml2's types stay opaque: its headers pull in the system ICU, which clashes with Foundation's copy.
typedef struct _xmlDoc *xmlDocPtr;
typedef struct _xmlNode *xmlNodePtr;

/// libxml2 node types that SSOKitSAML distinguishes (the values of xmlElementType).
enum {
    SSOKIT_NODE_ELEMENT = 1,
    SSOKIT_NODE_TEXT = 3,
    SSOKIT_NODE_CDATA = 4,
    SSOKIT_NODE_PI = 7,
    SSOKIT_NODE_COMMENT = 8,
};

/// Tree access. Returned strings are borrowed from the tree unless a function says otherwise.
void ssokit_doc_free(xmlDocPtr doc);
xmlNodePtr ssokit_doc_root(xmlDocPtr doc);
int ssokit_node_type(xmlNodePtr node);
const char *ssokit_node_name(xmlNodePtr node);
/// The namespace URI of an element, or NULL.
const char *ssokit_node_namespace(xmlNodePtr node);
/// The text of a text or CDATA node.
const char *ssokit_node_text(xmlNodePtr node);
xmlNodePtr ssokit_node_first_child(xmlNodePtr node);
xmlNodePtr ssokit_node_next(xmlNodePtr node);
xmlNodePtr ssokit_node_parent(xmlNodePtr node);
/// The value of an attribute without namespace, malloc'd (free with ssokit_free), or NULL.
char *ssokit_node_attribute(xmlNodePtr node, const char *name);
void ssokit_free(void *pointer);
/// Registers every `ID` attribute (and checks every xml:id) under `root` as an XML ID so that `#id` references
/// resolve. Returns 0, or -1 when two attributes share a value (a wrapping attempt).
int ssokit_register_ids(xmlDocPtr doc, xmlNodePtr root);
/// One walk over `root`: registers IDs as ssokit_register_ids does (returns -1 when they repeat), counts the elements
/// named `Assertion` or `EncryptedAssertion` in `assertion_namespace`, returns the first in *first, and sets
/// *misplaced when any of them is not a direct child of `root`.
int ssokit_scan_document(
    xmlDocPtr doc, xmlNodePtr root, const char *assertion_namespace, int *count, xmlNodePtr *first, int *misplaced);
/// The value of an attribute without namespace, borrowed from the tree when it is one text node: returns 0 when the
/// attribute is absent, 1 with *value set, 2 when the value must be read with ssokit_node_attribute.
int ssokit_node_attribute_borrowed(xmlNodePtr node, const char *name, const char **value);
/// The first element child of `node` at or after `from` (the first child when `from` is NULL) named `local_name` in
/// `namespace_uri`, or NULL. One call instead of one per child: the verifier looks children up on every Response.
xmlNodePtr ssokit_node_child_named(xmlNodePtr node, xmlNodePtr from, const char *local_name, const char *namespace_uri);
/// Whether `node` or any element inside it carries an attribute in a namespace.
int ssokit_node_has_namespaced_attribute(xmlNodePtr node);
/// How many element children of `node` are named `local_name` in `namespace_uri`, and the first of them in *first.
int ssokit_node_count_children_named(
    xmlNodePtr node, const char *local_name, const char *namespace_uri, xmlNodePtr *first);

/// Initialises libxml2, xmlsec and its OpenSSL backend once per process and silences their error output.
/// Returns 0 on success. Safe to call from any thread, any number of times.
int ssokit_xmlsec_initialize(void);

/// Outcome of ssokit_xml_parse.
typedef enum {
    SSOKIT_PARSE_OK = 0,
    SSOKIT_PARSE_MALFORMED = 1,
    SSOKIT_PARSE_DOCTYPE = 2,
    SSOKIT_PARSE_TOO_DEEP = 3,
    /// An element with more attributes, or more namespace declarations in scope, than the limits allow.
    SSOKIT_PARSE_TOO_COMPLEX = 4,
} ssokit_parse_status;

/// The caps a parse enforces as it goes.
typedef struct {
    /// The deepest element nesting (the root is at depth 1).
    int max_depth;
    /// The most attributes one element may carry (namespace declarations not counted).
    int max_attributes;
    /// The most namespace declarations in scope at any element (on it and its ancestors).
    int max_namespaces;
} ssokit_parse_limits;

/// Parses a document from memory with no network, no DTD loading, no entity substitution; stops at the first
/// DOCTYPE or entity declaration, and at the first element past `limits`. The caller frees the result with
/// xmlFreeDoc.
xmlDocPtr ssokit_xml_parse(const char *bytes, int length, const ssokit_parse_limits *limits, ssokit_parse_status *status);

/// What ssokit_scan_document finds, gathered while parsing (each element is examined as it is built, while it is
/// still in cache, instead of in a second walk over the finished tree).
typedef struct {
    /// 0 when the scan could not follow the parser: the caller must run ssokit_scan_document itself.
    int complete;
    /// ssokit_scan_document's return value: 0, or -1 when two ID attributes share a value.
    int result;
    int count;
    xmlNodePtr first;
    int misplaced;
} ssokit_parse_scan;

/// ssokit_xml_parse that also does ssokit_scan_document's work for `assertion_namespace` (registering every ID) as it
/// builds the tree, into *scan.
xmlDocPtr ssokit_xml_parse_scanning(const char *bytes, int length, const ssokit_parse_limits *limits,
                                    const char *assertion_namespace, ssokit_parse_status *status,
                                    ssokit_parse_scan *scan);

/// Whether any element of the finished document passes one of `limits` (1 when the document has no root).
int ssokit_doc_exceeds(xmlDocPtr doc, const ssokit_parse_limits *limits);

/// An xmlsec key (public, private or certificate-backed). Immutable once created; safe to share.
typedef struct ssokit_key ssokit_key;

/// The public key of a PEM or DER X.509 certificate, without the certificate (the fast verification path).
ssokit_key *ssokit_key_public_from_certificate(const unsigned char *data, size_t length, int is_pem);
/// A PEM private key (PKCS#1 or PKCS#8; RSA or EC), optionally with its PEM certificate attached.
ssokit_key *ssokit_key_private_from_pem(
    const unsigned char *key_pem, size_t key_length, const unsigned char *cert_pem, size_t cert_length);
void ssokit_key_free(ssokit_key *key);

/// Outcome of a signature verification.
typedef enum {
    SSOKIT_DSIG_VALID = 0,
    SSOKIT_DSIG_INVALID = 1,
    SSOKIT_DSIG_ERROR = 2,
} ssokit_dsig_status;

/// Verifies one enveloped ds:Signature with `key` only (KeyInfo is never read: there is no keys manager).
/// Only same-document references (no URI is ever opened); the transforms allowed are exclusive C14N and enveloped-signature; the
/// signature methods RSA-SHA256/384/512 and ECDSA-SHA256/384/512 (and RSA/ECDSA-SHA1 with allow_sha1); the digests
/// SHA-256/384/512 (and SHA-1 with allow_sha1). A Reference is resolved as one lookup in the document's ID table,
/// so the caller must have registered the IDs (ssokit_register_ids or a scanning parse); a Reference whose URI is
/// not '#' + a name without '(' or white space is ERROR before any work; ds:Manifest references are never processed. On VALID, writes the single reference's URI (NUL-terminated) into reference_uri
/// and the number of references into reference_count.
ssokit_dsig_status ssokit_dsig_verify(
    xmlNodePtr signature, const ssokit_key *key, int allow_sha1, char *reference_uri, size_t reference_uri_capacity,
    int *reference_count);

/// Signature algorithms for ssokit_dsig_sign_enveloped.
typedef enum {
    SSOKIT_SIGN_RSA_SHA256 = 0,
    SSOKIT_SIGN_RSA_SHA384 = 1,
    SSOKIT_SIGN_RSA_SHA512 = 2,
    SSOKIT_SIGN_ECDSA_SHA256 = 3,
    SSOKIT_SIGN_ECDSA_SHA384 = 4,
    SSOKIT_SIGN_ECDSA_SHA512 = 5,
} ssokit_sign_algorithm;

/// Adds an enveloped signature (exclusive C14N, SHA-256 digest) over `element`, whose ID attribute is `id` and is
/// already registered, inserted right after `after` (or as the first child when NULL). The key's certificate, if
/// any, goes into KeyInfo/X509Data. Returns 0 on success.
int ssokit_dsig_sign_enveloped(
    xmlNodePtr element, const char *id, xmlNodePtr after, const ssokit_key *key, ssokit_sign_algorithm algorithm);

/// Decrypts an xenc:EncryptedData element in place: the session key comes from `encrypted_key` (RSA-OAEP-MGF1P
/// with `key`), the content cipher is AES-CBC or AES-GCM. Only CipherValue is read: a CipherReference (any URI,
/// same-document included) fails, and no URI is ever opened. A plaintext with a start tag past `limits` (more '='
/// than its attributes and namespace declarations together allow) is not parsed. Returns 0 when the EncryptedData
/// was replaced by its plaintext and 1 for every failure, whichever step failed.
int ssokit_xmlenc_decrypt(
    xmlNodePtr encrypted_data, xmlNodePtr encrypted_key, const ssokit_key *key, const ssokit_parse_limits *limits);

/// Encrypts `element` in place for the holder of the private key that matches `recipient` (an RSA public key, as
/// an SP's encryption certificate gives it): the element is replaced by an xenc:EncryptedData (Type Element,
/// AES-256-GCM content under a fresh session key) whose KeyInfo holds an xenc:EncryptedKey (RSA-OAEP-MGF1P).
/// Returns 0 on success; on failure the element is left in place.
int ssokit_xmlenc_encrypt(xmlNodePtr element, const ssokit_key *recipient);

/// Creates an element `local_name` in the namespace `namespace_uri` (declared on it with `prefix`), puts it where
/// `element` is and moves `element` inside it. Returns the new element, or NULL.
xmlNodePtr ssokit_node_wrap(xmlNodePtr element, const char *namespace_uri, const char *prefix, const char *local_name);

/// Whether the key is RSA (1), EC (2) or something else (0).
int ssokit_key_type(const ssokit_key *key);

/// Signs data with the key's private part (RSA PKCS#1 v1.5, or ECDSA with the signature as r||s as XML DSig
/// writes it) over SHA-`digest_bits` (1, 256, 384 or 512). On success returns 0 and a malloc'd signature.
int ssokit_raw_sign(const ssokit_key *key, int digest_bits, const unsigned char *data, size_t length,
    unsigned char **signature, size_t *signature_length);
/// Verifies a raw signature made as ssokit_raw_sign makes it. Returns 0 valid, 1 invalid, 2 error.
int ssokit_raw_verify(const ssokit_key *key, int digest_bits, const unsigned char *data, size_t length,
    const unsigned char *signature, size_t signature_length);

/// Raw DEFLATE (RFC 1951) of input. On success returns 0 and a malloc'd buffer the caller frees with free().
int ssokit_deflate_raw(const unsigned char *input, size_t length, unsigned char **output, size_t *output_length);
/// Raw INFLATE with a hard output cap. Returns 0 on success, 1 when the output would exceed max_output,
/// 2 when the data is not valid DEFLATE. On success *output is malloc'd; free() it.
int ssokit_inflate_raw(
    const unsigned char *input, size_t length, size_t max_output, unsigned char **output, size_t *output_length);

/// Serialises a node (with its namespace context) to a malloc'd UTF-8 buffer; free() it. Returns 0 on success.
int ssokit_xml_serialize(xmlDocPtr doc, unsigned char **output, size_t *output_length);

#endif
