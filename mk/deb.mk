# Debian packages (docs/debian.md).
#   make deb        build abiwatch and abiwatch-cookiefs .debs with
#                   dpkg-buildpackage in a clean copy of the tracked files
#                   (build/deb/src), then lintian them: build/deb/*.deb
#   make deb-check  make deb, then the packages' autopkgtest (debian/tests)
#                   in a throwaway Debian 12 chroot (scripts/deb-testbed)
# Each installs what it needs if missing (scripts/install-deps deb, and
# deb-check: autopkgtest and mmdebstrap, which make check does not need).
DEB_OUT ?= build/deb
.PHONY: deb deb-check
deb:
	@scripts/install-deps deb
	rm -rf $(DEB_OUT) && mkdir -p $(DEB_OUT)/src
	git ls-files -z | tar --null -T - -cf - | tar -xf - -C $(DEB_OUT)/src
	cd $(DEB_OUT)/src && dpkg-buildpackage -us -uc -b -j2
	lintian --fail-on error,warning --info $(DEB_OUT)/*.changes

deb-check: deb
	@scripts/install-deps deb-check
	scripts/deb-testbed $(DEB_OUT)
