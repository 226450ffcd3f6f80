// Links libxml2, xmlsec1-openssl, OpenSSL and zlib, and carries pkg-config's include paths to CXMLSecReference.
// Nothing is declared here: Swift reaches these libraries only through CXMLSecReference.
