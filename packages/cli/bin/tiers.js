#!/usr/bin/env node
// A plain file, present before the build, so npm links the bin on install.
import '../dist/bin.js'
