// SQLite 3 from the system (Debian: libsqlite3-dev), for SSOKitTokenCache's embedded store.
#include <sqlite3.h>
