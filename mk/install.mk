# make install [DESTDIR=DIR] [PREFIX=/usr/local]: the layout abiwatch finds
# its parts in, relative to its own binary (aw_exe_dir()):
#   PREFIX/bin/abiwatch, PREFIX/bin/abiwatch-cookiefs
#   PREFIX/libexec/abiwatch/   the 32-bit helpers, and for `abiwatch vm` the
#                              static abiwatch and the guest's init
#   PREFIX/share/abiwatch/catalogue.md   the entries report embeds in its page
#   PREFIX/share/man/man{1,5,7}/, PREFIX/share/doc/abiwatch/
PREFIX ?= /usr/local
INSTALL ?= install
bindir := $(DESTDIR)$(PREFIX)/bin
libexecdir := $(DESTDIR)$(PREFIX)/libexec/abiwatch
datadir := $(DESTDIR)$(PREFIX)/share/abiwatch
mandir := $(DESTDIR)$(PREFIX)/share/man
docdir := $(DESTDIR)$(PREFIX)/share/doc/abiwatch

.PHONY: install
install: all
	$(INSTALL) -d $(bindir) $(libexecdir) $(datadir) $(mandir)/man1 $(mandir)/man5 \
		$(mandir)/man7 $(docdir)/examples
	$(INSTALL) -m 755 abiwatch $(bindir)/abiwatch
	$(INSTALL) -m 755 $(COOKIEFS) $(bindir)/abiwatch-cookiefs
	$(INSTALL) -m 755 $(M32_BINS) build/static/abiwatch build/vm/abiwatch-init $(libexecdir)/
	$(INSTALL) -m 644 docs/catalogue.md $(datadir)/
	$(INSTALL) -m 644 man/abiwatch.1 man/abiwatch-cookiefs.1 $(mandir)/man1/
	$(INSTALL) -m 644 man/abiwatch-snapshot.5 man/abiwatch-assumptions.5 $(mandir)/man5/
	$(INSTALL) -m 644 man/abiwatch-catalogue.7 $(mandir)/man7/
	$(INSTALL) -m 644 README.md docs/architecture.md docs/lava.md $(docdir)/
	$(INSTALL) -m 644 examples/assumptions/*.assume $(docdir)/examples/
