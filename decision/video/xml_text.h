#pragma once
// Text into an XML document being written by hand (the VAST writer builds its document
// straight into the reply buffer, with no DOM). Input is UTF-8, as the catalog guarantees.
//
// Characters XML 1.0 forbids anywhere (C0 controls other than tab, line feed and carriage
// return; U+FFFE and U+FFFF) cannot be escaped, only replaced: they become U+FFFD, so a
// stray control character in a catalog string never makes a document unparseable.
#include <string>
#include <string_view>

namespace decision::video {

// Character data: &, < and > escaped, and carriage return as a reference (a parser would
// read a literal one as a line feed).
void append_xml_text(std::string& out, std::string_view text);

// An attribute value, to go between double quotes: &, <, > and " escaped, and tab, line feed
// and carriage return as character references (attribute-value normalisation would turn the
// literal characters into spaces).
void append_xml_attribute(std::string& out, std::string_view text);

// The contents of a CDATA section, without its delimiters: every "]]>" inside is split
// across two sections ("]]" ends one, the next starts with ">"), and a carriage return
// steps out of the section as &#13; (a parser reads a literal one as a line feed, in CDATA
// too), so the caller's "<![CDATA[" ... "]]>" always frames exactly the text.
void append_cdata_content(std::string& out, std::string_view text);

// <![CDATA[text]]>
void append_cdata(std::string& out, std::string_view text);

// A URL as written in the catalog (an http(s) URL without whitespace), made a URI that
// RFC 3986 allows: bytes it never allows are percent-encoded (non-ASCII,
// the UTF-8 of an IRI's characters as RFC 3987 maps them; " < > \ ^ ` { | }; '[' and ']'
// outside the authority, where only an IP literal may hold them; a second '#'; '%' not
// followed by two hex digits). Bytes a URI allows are never touched, so a URL that was
// already a URI (a signed CDN URL, say) reaches the player byte for byte, and what XML
// Schema's anyURI checkers accept is exactly what HTTP clients would send. Since '>' is
// always encoded, the result never holds "]]>".
void append_uri(std::string& out, std::string_view url);

// <![CDATA[uri]]>, the uri as append_uri writes it.
void append_cdata_uri(std::string& out, std::string_view url);

}  // namespace decision::video
