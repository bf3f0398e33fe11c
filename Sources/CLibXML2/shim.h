#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* libxml2's encoding.h would pull in the system ICU headers, which clash with the ICU that
   Foundation ships. We never touch xmlCharEncodingHandler's fields, so hide ICU from it. */
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/tree.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

/// Silences libxml2's generic error channel (it prints to stderr by default).
static void clibxml2_ignore_generic(void *ctx, const char *msg, ...) { (void)ctx; (void)msg; }
static inline void clibxml2_silence(void) {
    xmlSetGenericErrorFunc(NULL, clibxml2_ignore_generic);
    xmlSetStructuredErrorFunc(NULL, NULL);
}

/// xmlFree is a global function pointer; a call through it is awkward from Swift.
static inline void clibxml2_free(void *p) { xmlFree(p); }

#endif
