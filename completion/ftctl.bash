# SPDX-License-Identifier: GPL-2.0-only
# bash completion for ftctl(8): commands, their options, config files,
# network interfaces for xdp/tc.

_ftctl()
{
	local cur prev words cword
	_init_completion || return

	local cmds="apply show stats down genkey keyid xdp tc help"
	if ((cword == 1)); then
		COMPREPLY=($(compgen -W "$cmds --help --version" -- "$cur"))
		return
	fi
	case ${words[1]} in
	apply)
		case $prev in
		-n | --node) return ;;
		esac
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--node --dry-run --restart --force --verbose --help" -- "$cur"))
		else
			_filedir conf
		fi
		;;
	show | stats)
		COMPREPLY=($(compgen -W "--json --help" -- "$cur"))
		;;
	xdp | tc)
		if ((cword == 2)); then
			COMPREPLY=($(compgen -W "attach detach status" -- "$cur"))
		elif [[ ${words[2]} == status ]]; then
			COMPREPLY=($(compgen -W "--json" -- "$cur"))
		elif [[ $prev == --mode || $prev == -m ]]; then
			COMPREPLY=($(compgen -W "auto native generic" -- "$cur"))
		elif [[ $cur == -* && ${words[1]} == xdp && ${words[2]} == attach ]]; then
			COMPREPLY=($(compgen -W "--mode" -- "$cur"))
		else
			_available_interfaces
		fi
		;;
	help)
		((cword == 2)) && COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
		;;
	esac
} &&
	complete -F _ftctl ftctl
